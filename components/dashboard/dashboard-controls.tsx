"use client";
// The dashboard's range, filters and breakdown. Each change rewrites the URL
// (the one place the view lives), so a view can be bookmarked and shared.
import { useSyncExternalStore } from "react";
import { Input, Select } from "@/components/ui/input";
import { cn } from "@/components/ui/cn";
import { METRIC_BREAKDOWNS, METRIC_RANGES, type MetricRange } from "@/lib/metrics/schemas";
import { isoToLocalInput, localInputToIso } from "@/lib/runs/time-range";
import type { DashboardKey } from "./dashboard-url";

const RANGE_LABELS: Record<MetricRange, string> = { "1h": "1 h", "24h": "24 h", "7d": "7 d", "30d": "30 d", custom: "Custom" };
/** "none" draws the labelled charts by their own label (reason, target…), so "label" needs no choice of its own. */
const BREAKDOWN_LABELS: Partial<Record<(typeof METRIC_BREAKDOWNS)[number], string>> = {
  none: "each chart's own (reason, target…)",
  graph: "graph",
  version: "version",
  model: "model",
  tool: "tool",
  starter: "starter",
};

const FILTERS: { key: DashboardKey; label: string; placeholder: string; width: string; type?: string }[] = [
  { key: "graph", label: "Agent graph", placeholder: "support-triage", width: "w-40" },
  { key: "version", label: "Version", placeholder: "", width: "w-20", type: "number" },
  { key: "model", label: "Model", placeholder: "demo/assistant", width: "w-40" },
  { key: "tool", label: "Tool", placeholder: "lookup_order", width: "w-36" },
  { key: "startedBy", label: "Starter", placeholder: "email", width: "w-44" },
];

/** Custom starts from the span in the URL, or the last 24 hours (read on click, not while rendering). */
function customSpan(params: URLSearchParams): { from: string; to: string } {
  const now = Date.now();
  return { from: params.get("from") ?? new Date(now - 86_400_000).toISOString(), to: params.get("to") ?? new Date(now).toISOString() };
}

const noSubscription = () => () => undefined;

/** False on the server and while hydrating: the browser's time zone is known only afterwards. */
function useInBrowser(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

export interface DashboardControlsProps {
  params: URLSearchParams;
  onChange: (changes: Partial<Record<DashboardKey, string>>) => void;
}

export function DashboardControls({ params, onChange }: DashboardControlsProps) {
  const inBrowser = useInBrowser();
  const range = params.get("range") ?? "24h";
  return (
    <form className="flex flex-wrap items-end gap-3 rounded-lg border border-zinc-200 bg-white p-3 text-sm" onSubmit={(e) => e.preventDefault()} aria-label="Dashboard view">
      {/* Disabled until hydrated: a choice made in the server's HTML would reach no handler and be lost. */}
      <fieldset disabled={!inBrowser} className="contents">
        <div className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600" id="range-label">
            Range
          </span>
          <div role="group" aria-labelledby="range-label" className="inline-flex overflow-hidden rounded-md ring-1 ring-inset ring-zinc-300">
            {METRIC_RANGES.map((r) => (
              <button
                key={r}
                type="button"
                aria-pressed={range === r}
                onClick={() => onChange(r === "custom" ? { range: r, ...customSpan(params) } : { range: r })}
                className={cn("px-3 py-2 text-sm", range === r ? "bg-indigo-600 font-medium text-white" : "bg-white text-zinc-700 hover:bg-zinc-50")}
              >
                {RANGE_LABELS[r]}
              </button>
            ))}
          </div>
        </div>
        {range === "custom" ? (
          <>
            <label className="flex flex-col gap-1">
              <span className="text-xs text-zinc-600">From</span>
              <Input key={`from-${params.get("from") ?? ""}`} aria-label="From" type="datetime-local" defaultValue={inBrowser ? isoToLocalInput(params.get("from")) : ""} onBlur={(e) => onChange({ from: localInputToIso(e.target.value) })} />
            </label>
            <label className="flex flex-col gap-1">
              <span className="text-xs text-zinc-600">To</span>
              <Input key={`to-${params.get("to") ?? ""}`} aria-label="To" type="datetime-local" defaultValue={inBrowser ? isoToLocalInput(params.get("to")) : ""} onBlur={(e) => onChange({ to: localInputToIso(e.target.value, { end: true }) })} />
            </label>
          </>
        ) : null}
        {FILTERS.map((f) => (
          <label key={f.key} className="flex flex-col gap-1">
            <span className="text-xs text-zinc-600">{f.label}</span>
            <Input
              key={`${f.key}-${params.get(f.key) ?? ""}`}
              aria-label={f.label}
              type={f.type ?? "text"}
              min={f.type === "number" ? 1 : undefined}
              defaultValue={params.get(f.key) ?? ""}
              placeholder={f.placeholder}
              className={f.width}
              onBlur={(e) => {
                const value = e.target.value.trim();
                if (value !== (params.get(f.key) ?? "")) onChange({ [f.key]: value });
              }}
              onKeyDown={(e) => {
                if (e.key === "Enter") e.currentTarget.blur();
              }}
            />
          </label>
        ))}
        <label className="flex flex-col gap-1">
          <span className="text-xs text-zinc-600">Split by</span>
          <Select aria-label="Split by" value={params.get("breakdown") === "label" ? "none" : (params.get("breakdown") ?? "none")} onChange={(e) => onChange({ breakdown: e.target.value === "none" ? "" : e.target.value })}>
            {METRIC_BREAKDOWNS.map((b) =>
              BREAKDOWN_LABELS[b] ? (
                <option key={b} value={b}>
                  {BREAKDOWN_LABELS[b]}
                </option>
              ) : null,
            )}
          </Select>
        </label>
      </fieldset>
    </form>
  );
}
