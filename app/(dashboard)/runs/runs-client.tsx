"use client";
// The runs list: filters live in the URL, the page refreshes itself every two
// seconds while any run on it is still working, sub-runs fold under their parent.
import { Fragment, useState } from "react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Input, Select } from "@/components/ui/input";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/alert";
import { EmptyState } from "@/components/ui/empty-state";
import { StatusBadge } from "@/components/runs/status-badge";
import { PlanOutcomeBadge } from "@/components/runs/plan-outcome";
import { UsageCell } from "@/components/runs/usage";
import { formatDuration } from "@/lib/format/figures";
import { DateTime, useInBrowser } from "@/components/ui/date-time";
import { runDurationMs, runTimes } from "@/lib/runs/run-time";
import { routedToText } from "@/lib/runs/routing-label";
import { useNow } from "@/components/runs/use-now";
import { runsListRefetchMs, useLiveRunsList } from "@/components/runs/use-live-runs";
import { StreamEndedAlert } from "@/components/runs/stream-ended";
import { IndexLagNote } from "@/components/runs/derived-lag";
import { FAILURE_REASONS, PLAN_OUTCOMES, RUN_STATUSES, isTerminal, type RunListPage, type RunListRow } from "@/lib/runs/schemas";
import { isoToLocalInput, localInputToIso, normalizeRangeQuery } from "@/lib/runs/time-range";
import { versionCell } from "@/lib/runs/version-label";
import { getJson } from "@/lib/http/client";
import { plural } from "@/lib/text/plural";
import { SearchSnippet } from "@/components/runs/search-snippet";
import { SavedViews } from "@/components/runs/search-views";
import { AddToDatasetDialog } from "@/components/datasets/add-to-dataset-dialog";

type Filter = "status" | "reason" | "routedTo" | "planOutcome" | "graph" | "version" | "startedBy" | "awaitingApproval" | "from" | "to" | "page" | "q" | "tool" | "model" | "feedback" | "experiments";

function Row({ row, depth, open, onToggle, selected, onSelect }: { row: RunListRow; depth: number; open: boolean; onToggle?: () => void; selected?: boolean; onSelect?: (on: boolean) => void }) {
  const now = useNow();
  return (
    <tr className={depth ? "bg-zinc-50/70" : "border-t border-zinc-200"} data-testid={depth ? "sub-run-row" : "run-row"}>
      <td className="py-2 pr-3" style={{ paddingLeft: `${depth * 1.5 + 0.5}rem` }}>
        <div className="flex items-center gap-2">
          {onSelect ? <input type="checkbox" aria-label={`Select run ${row.runId}`} data-testid="select-run" checked={selected ?? false} onChange={(e) => onSelect(e.target.checked)} /> : null}
          {onToggle ? (
            <button type="button" aria-label={open ? `Hide sub-runs of ${row.runId}` : `Show sub-runs of ${row.runId}`} aria-expanded={open} onClick={onToggle} className="w-4 text-zinc-500">
              {open ? "▾" : "▸"}
            </button>
          ) : (
            <span className="w-4" />
          )}
          <div className="min-w-0">
            <Link href={`/runs/${encodeURIComponent(row.runId)}`} className="font-medium text-indigo-700 hover:underline">
              {depth ? `↳ ${row.agentName}` : (row.graphName ?? row.agentName)}
            </Link>
            {row.subRuns.length ? (
              <p data-testid="sub-run-count" className="text-xs text-zinc-500">
                {plural(row.subRuns.length, "sub-run")}
              </p>
            ) : null}
            <p className="max-w-md truncate text-xs text-zinc-500" title={row.task}>
              {row.task}
            </p>
            {row.match ? <SearchSnippet hit={row.match} /> : null}
            {row.stuck?.length ? (
              <p data-testid="stuck-reasons" className="mt-0.5 text-xs text-amber-800">
                {row.stuck.join(" · ")}
              </p>
            ) : null}
          </div>
        </div>
      </td>
      <td className="px-3">
        <StatusBadge status={row.status} />
        {row.pendingApprovals ? <span className="ml-1 text-xs text-amber-700">{row.pendingApprovals} waiting</span> : null}
        {row.temporalStatus && row.temporalStatus !== "RUNNING" && !isTerminal(row.status) ? <span className="ml-1 text-xs text-zinc-500">({row.temporalStatus.toLowerCase()})</span> : null}
        {/* Only this outcome adds to the status: a completed plan's run completed, a failed one's failed with plan_failed. */}
        {row.planOutcome === "partially_failed" ? (
          <span className="ml-1">
            <PlanOutcomeBadge outcome={row.planOutcome} />
          </span>
        ) : null}
        {row.error ? (
          <p className="mt-0.5 max-w-xs truncate text-xs text-red-700" data-testid="failure-reason" title={row.error.message}>
            {row.error.reason.replaceAll("_", " ")}
          </p>
        ) : null}
      </td>
      <td className="px-3 text-xs text-zinc-600" data-testid="routed-to">
        {routedToText(row) ?? "—"}
      </td>
      <td className="px-3 text-xs text-zinc-600" data-testid="run-version">
        {versionCell(row)}
      </td>
      <td className="px-3 text-xs text-zinc-600">{row.startedBy ?? "—"}</td>
      <td className="px-3 text-xs text-zinc-600 whitespace-nowrap">
        <DateTime value={row.startedAt} testId={depth ? undefined : "run-row-started"} />
      </td>
      {/* The run header's duration: start → end, or → now while it works (lib/runs/run-time.ts). */}
      <td className="px-3 text-xs text-zinc-600 whitespace-nowrap" data-testid="run-row-duration">
        {row.endedAt || now ? formatDuration(runDurationMs(runTimes(row), now)) : "—"}
      </td>
      <td className="px-3 text-xs">
        <UsageCell self={row.self} total={row.total} />
      </td>
    </tr>
  );
}

export function RunsClient() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const inBrowser = useInBrowser();
  const [openGroups, setOpenGroups] = useState<Set<string>>(new Set());
  // Top-level runs chosen for "Add to dataset" (kept across pages and filters until cleared).
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const choose = (runId: string, on: boolean) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (on) next.add(runId);
      else next.delete(runId);
      return next;
    });
  const query = params.toString();
  // The runs feed keeps the page current; it polls at the old intervals only while the feed is down.
  const live = useLiveRunsList(["runs", query]);
  const runs = useQuery({
    queryKey: ["runs", query],
    queryFn: () => getJson<RunListPage>(`/api/runs/list?${normalizeRangeQuery(params)}`, { what: "runs" }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => runsListRefetchMs(live.path, q.state.data),
  });
  const set = (key: Filter, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== "page") next.delete("page");
    router.replace(`${pathname}?${next.toString()}`);
  };
  const data = runs.data;
  const page = data?.page ?? 1;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <div className="space-y-4">
      <SavedViews params={params} />
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
          <Input key={`tool-${params.get("tool") ?? ""}`} aria-label="Tool" defaultValue={params.get("tool") ?? ""} onBlur={(e) => set("tool", e.target.value.trim())} placeholder="lookup_order" className="w-36" />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">Model</span>
          <Input key={`model-${params.get("model") ?? ""}`} aria-label="Model" defaultValue={params.get("model") ?? ""} onBlur={(e) => set("model", e.target.value.trim())} placeholder="demo/assistant" className="w-36" />
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
          <Input aria-label="Routed agent" defaultValue={params.get("routedTo") ?? ""} onBlur={(e) => set("routedTo", e.target.value.trim())} placeholder="agent" className="w-36" />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">Agent graph</span>
          <Input aria-label="Agent graph" defaultValue={params.get("graph") ?? ""} onBlur={(e) => set("graph", e.target.value.trim())} placeholder="support-triage" className="w-40" />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">Version</span>
          <Input aria-label="Version" type="number" min={1} defaultValue={params.get("version") ?? ""} onBlur={(e) => set("version", e.target.value)} className="w-20" />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">Started by</span>
          <Input aria-label="Started by" defaultValue={params.get("startedBy") ?? ""} onBlur={(e) => set("startedBy", e.target.value.trim())} placeholder="email" className="w-44" />
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
        <label className="flex items-center gap-2 pb-2">
          <input type="checkbox" checked={params.has("awaitingApproval")} onChange={(e) => set("awaitingApproval", e.target.checked ? "1" : "")} />
          <span>Awaiting approval</span>
        </label>
        <label className="flex items-center gap-2 pb-2">
          <input type="checkbox" checked={params.has("experiments")} onChange={(e) => set("experiments", e.target.checked ? "1" : "")} />
          <span>Show experiment runs</span>
        </label>
        </fieldset>
      </form>
      {data && data.total === 0 && !query ? (
        <EmptyState title="No runs yet">Start one with “New run” here, or from an agent in the designer.</EmptyState>
      ) : null}
      {runs.error ? <Alert tone="error">{runs.error.message}</Alert> : null}
      {data?.temporalNote ? <Alert tone="info">{data.temporalNote}</Alert> : null}
      {data?.matchNote ? <Alert tone="info">{data.matchNote}</Alert> : null}
      <IndexLagNote lag={data?.indexBehind} />
      {chosen.size ? (
        <div className="flex items-center gap-3 text-sm" data-testid="run-selection">
          <span>{plural(chosen.size, "run")} selected</span>
          <AddToDatasetDialog runIds={[...chosen]} />
          <Button variant="ghost" onClick={() => setChosen(new Set())}>
            Clear
          </Button>
        </div>
      ) : null}
      <StreamEndedAlert end={live.ended} />
      <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white" data-testid="runs-list" data-live={live.path}>
        <table className="w-full text-left text-sm">
          <thead className="bg-zinc-50 text-xs uppercase tracking-wide text-zinc-500">
            <tr>
              <th className="py-2 pl-10 pr-3">Run</th>
              <th className="px-3">Status</th>
              <th className="px-3">Routed to</th>
              <th className="px-3">Version</th>
              <th className="px-3">Started by</th>
              <th className="px-3">Started</th>
              <th className="px-3">Duration</th>
              <th className="px-3">Tokens · cost (self / total)</th>
            </tr>
          </thead>
          <tbody>
            {data?.rows.map((row) => {
              const open = openGroups.has(row.runId);
              const toggle = row.subRuns.length
                ? () =>
                    setOpenGroups((prev) => {
                      const next = new Set(prev);
                      if (next.has(row.runId)) next.delete(row.runId);
                      else next.add(row.runId);
                      return next;
                    })
                : undefined;
              const flatten = (rows: RunListRow[], depth: number): { row: RunListRow; depth: number }[] => rows.flatMap((r) => [{ row: r, depth }, ...flatten(r.subRuns, depth + 1)]);
              return (
                <Fragment key={row.runId}>
                  <Row row={row} depth={0} open={open} onToggle={toggle} selected={chosen.has(row.runId)} onSelect={(on) => choose(row.runId, on)} />
                  {open ? flatten(row.subRuns, 1).map((sub) => <Row key={sub.row.runId} row={sub.row} depth={sub.depth} open={false} />) : null}
                </Fragment>
              );
            })}
            {data && data.rows.length === 0 ? (
              <tr>
                <td colSpan={8} className="p-6 text-center text-zinc-500">
                  No runs match. Start one with “New run” or from an agent.
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      <div className="flex items-center justify-between text-sm text-zinc-600">
        <span>{data ? plural(data.total, "run") : "Loading…"}</span>
        <span className="flex items-center gap-2">
          <Button variant="secondary" disabled={page <= 1} onClick={() => set("page", String(page - 1))}>
            Previous
          </Button>
          <span>
            page {page} of {pages}
          </span>
          <Button variant="secondary" disabled={page >= pages} onClick={() => set("page", String(page + 1))}>
            Next
          </Button>
        </span>
      </div>
    </div>
  );
}
