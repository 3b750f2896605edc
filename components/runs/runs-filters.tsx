"use client";
// The runs list's filters, each in the URL. Graph, model, tool and webhook suggest the
// values that exist (GET /api/runs/suggestions), so a misspelt name, which
// matches nothing, is not the only way to find out how it is spelt. Every field
// is keyed by its URL value, so opening a saved view shows that view's filters.
import type { KeyboardEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import { Input, Select } from "@/components/ui/input";
import { useInBrowser } from "@/components/ui/date-time";
import { getJson } from "@/lib/http/client";
import { FAILURE_REASONS, PLAN_OUTCOMES, RUN_STATUSES, type RunFilterSuggestions } from "@/lib/runs/schemas";
import { isoToLocalInput, localInputToIso } from "@/lib/runs/time-range";
import { RUN_TRIGGER_LABELS, RUN_TRIGGERS } from "@/lib/runs/triggers";

export type Filter = "status" | "reason" | "routedTo" | "planOutcome" | "graph" | "version" | "startedBy" | "awaitingApproval" | "from" | "to" | "page" | "q" | "tool" | "model" | "feedback" | "experiments" | "scheduleId" | "webhook" | "trigger" | "label" | "evaluator" | "scoreBelow" | "scoreAtLeast";

/** Enter applies a field as leaving it does (a suggestion picked with the keyboard ends with Enter). */
const commitOnEnter = (apply: (value: string) => void) => (e: KeyboardEvent<HTMLInputElement>) => {
  if (e.key === "Enter") apply(e.currentTarget.value.trim());
};

function Suggestions({ id, values }: { id: string; values: string[] | undefined }) {
  return (
    <datalist id={id} data-testid={id}>
      {values?.map((value) => <option key={value} value={value} />)}
    </datalist>
  );
}

export function RunsFilters({ params, set }: { params: URLSearchParams; set: (key: Filter, value: string) => void }) {
  const inBrowser = useInBrowser();
  const { data: suggestions } = useQuery({
    queryKey: ["run-suggestions"],
    queryFn: () => getJson<RunFilterSuggestions>("/api/runs/suggestions", { what: "filter suggestions" }),
    staleTime: 60_000,
  });
  return (
    <form className="flex flex-wrap items-end gap-3 rounded-lg border border-zinc-200 bg-white p-3 text-sm" onSubmit={(e) => e.preventDefault()} aria-label="Filter runs">
      {/* Disabled until hydrated: a choice made in the server's HTML would reach no handler and be lost (seen in e2e under load). */}
      <fieldset disabled={!inBrowser} className="contents">
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">Search</span>
          {/* Keyed by the URL's q, so opening a saved view shows its search. */}
          <Input
            key={params.get("q") ?? ""}
            aria-label="Search runs"
            type="search"
            defaultValue={params.get("q") ?? ""}
            placeholder="order 4417, an error, a tool argument…"
            className="w-72"
            onKeyDown={(e) => {
              if (e.key === "Enter") set("q", e.currentTarget.value.trim());
            }}
            onBlur={(e) => set("q", e.target.value.trim())}
          />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">Tool</span>
          <Input key={`tool-${params.get("tool") ?? ""}`} aria-label="Tool" list="runs-tool-values" defaultValue={params.get("tool") ?? ""} onBlur={(e) => set("tool", e.target.value.trim())} onKeyDown={commitOnEnter((v) => set("tool", v))} placeholder="lookup_order" className="w-36" />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">Model</span>
          <Input key={`model-${params.get("model") ?? ""}`} aria-label="Model" list="runs-model-values" defaultValue={params.get("model") ?? ""} onBlur={(e) => set("model", e.target.value.trim())} onKeyDown={commitOnEnter((v) => set("model", v))} placeholder="demo/assistant" className="w-36" />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">Status</span>
          <Select aria-label="Status" value={params.get("status") ?? ""} onChange={(e) => set("status", e.target.value)}>
            <option value="">any</option>
            {RUN_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.replace("_", " ")}
              </option>
            ))}
            <option value="active">still running (not ended)</option>
          </Select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">Feedback</span>
          <Select aria-label="Feedback" value={params.get("feedback") ?? ""} onChange={(e) => set("feedback", e.target.value)}>
            <option value="">any or none</option>
            <option value="down">thumbs down</option>
            <option value="up">thumbs up</option>
            <option value="any">some feedback</option>
            <option value="none">no feedback</option>
          </Select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">Evaluator</span>
          <Input key={`evaluator-${params.get("evaluator") ?? ""}`} aria-label="Evaluator" defaultValue={params.get("evaluator") ?? ""} onBlur={(e) => set("evaluator", e.target.value.trim())} onKeyDown={commitOnEnter((v) => set("evaluator", v))} placeholder="online evaluator" className="w-36" />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">Score below</span>
          <Input key={`below-${params.get("scoreBelow") ?? ""}`} aria-label="Score below" type="number" min={0} max={1} step={0.05} defaultValue={params.get("scoreBelow") ?? ""} onBlur={(e) => set("scoreBelow", e.target.value)} onKeyDown={commitOnEnter((v) => set("scoreBelow", v))} placeholder="0–1" className="w-20" />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">Failure</span>
          <Select aria-label="Failure" value={params.get("reason") ?? ""} onChange={(e) => set("reason", e.target.value)}>
            <option value="">any</option>
            {FAILURE_REASONS.map((r) => (
              <option key={r} value={r}>
                {r.replaceAll("_", " ")}
              </option>
            ))}
          </Select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">Plan outcome</span>
          <Select aria-label="Plan outcome" value={params.get("planOutcome") ?? ""} onChange={(e) => set("planOutcome", e.target.value)}>
            <option value="">any</option>
            {PLAN_OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {o.replace("_", " ")}
              </option>
            ))}
          </Select>
        </label>
        <label className="flex flex-col gap-1">
          {/* Not "Routed to": a label containing "to" would also answer to the To field's name. */}
          <span className="text-xs text-zinc-600">Routed agent</span>
          <Input key={`routed-${params.get("routedTo") ?? ""}`} aria-label="Routed agent" defaultValue={params.get("routedTo") ?? ""} onBlur={(e) => set("routedTo", e.target.value.trim())} placeholder="agent" className="w-36" />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">Agent graph</span>
          <Input key={`graph-${params.get("graph") ?? ""}`} aria-label="Agent graph" list="runs-graph-values" defaultValue={params.get("graph") ?? ""} onBlur={(e) => set("graph", e.target.value.trim())} onKeyDown={commitOnEnter((v) => set("graph", v))} placeholder="support-triage" className="w-40" />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">Version</span>
          <Input key={`version-${params.get("version") ?? ""}`} aria-label="Version" type="number" min={1} defaultValue={params.get("version") ?? ""} onBlur={(e) => set("version", e.target.value)} className="w-20" />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">Started by</span>
          <Input key={`by-${params.get("startedBy") ?? ""}`} aria-label="Started by" defaultValue={params.get("startedBy") ?? ""} onBlur={(e) => set("startedBy", e.target.value.trim())} placeholder="email" className="w-44" />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">From</span>
          {/* The URL holds instants; the inputs show them in the browser's zone, so they mount again once that is known.
              Until then they are disabled: a value typed into the server's HTML would be lost when they mount again. */}
          <Input key={inBrowser ? "local" : "server"} disabled={!inBrowser} aria-label="From" type="datetime-local" defaultValue={inBrowser ? isoToLocalInput(params.get("from")) : ""} onChange={(e) => set("from", localInputToIso(e.target.value))} />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">To</span>
          <Input key={inBrowser ? "local" : "server"} disabled={!inBrowser} aria-label="To" type="datetime-local" defaultValue={inBrowser ? isoToLocalInput(params.get("to")) : ""} onChange={(e) => set("to", localInputToIso(e.target.value, { end: true }))} />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">Schedule</span>
          {/* The schedules page links here with its id: the runs one schedule started. */}
          <Input key={`schedule-${params.get("scheduleId") ?? ""}`} aria-label="Schedule" defaultValue={params.get("scheduleId") ?? ""} onBlur={(e) => set("scheduleId", e.target.value.trim())} onKeyDown={commitOnEnter((v) => set("scheduleId", v))} placeholder="sch_…" className="w-44" />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">Started how</span>
          {/* The overview's "How runs started" links here with its trigger: the runs its bar counts. */}
          <Select aria-label="Trigger" value={params.get("trigger") ?? ""} onChange={(e) => set("trigger", e.target.value)}>
            <option value="">any</option>
            {RUN_TRIGGERS.map((t) => (
              <option key={t} value={t}>
                {RUN_TRIGGER_LABELS[t]}
              </option>
            ))}
          </Select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">Webhook</span>
          <Input key={`webhook-${params.get("webhook") ?? ""}`} aria-label="Webhook" list="runs-webhook-values" defaultValue={params.get("webhook") ?? ""} onBlur={(e) => set("webhook", e.target.value.trim())} onKeyDown={commitOnEnter((v) => set("webhook", v))} placeholder="whk_…" className="w-44" />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">Label</span>
          <Input key={`label-${params.get("label") ?? ""}`} aria-label="Label" defaultValue={params.get("label") ?? ""} onBlur={(e) => set("label", e.target.value.trim())} onKeyDown={commitOnEnter((v) => set("label", v))} placeholder="production" className="w-32" />
        </label>
        <label className="flex items-center gap-2 pb-2">
          <input type="checkbox" checked={params.has("awaitingApproval")} onChange={(e) => set("awaitingApproval", e.target.checked ? "1" : "")} />
          <span>Awaiting approval</span>
        </label>
        <label className="flex items-center gap-2 pb-2">
          <input type="checkbox" checked={params.has("experiments")} onChange={(e) => set("experiments", e.target.checked ? "1" : "")} />
          <span>Show experiment runs</span>
        </label>
      </fieldset>
      <Suggestions id="runs-graph-values" values={suggestions?.graphs} />
      <Suggestions id="runs-model-values" values={suggestions?.models} />
      <Suggestions id="runs-tool-values" values={suggestions?.tools} />
      {/* The filter takes an endpoint's id; its name is the option's label. */}
      <datalist id="runs-webhook-values" data-testid="runs-webhook-values">
        {suggestions?.webhooks.map((w) => (
          <option key={w.id} value={w.id} label={w.name} />
        ))}
      </datalist>
    </form>
  );
}
