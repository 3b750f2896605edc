"use client";
// "How runs started" on the overview: the runs the run tiles count (same start
// range and filters, experiment runs included) split by what started them — a
// person, a schedule, a webhook, an experiment (lib/runs/triggers.ts) — read
// from GET /api/runs/triggers beside the dashboard's own answer and refreshed
// with it. One bar, one colour per trigger from the page's colour map; each
// trigger opens the runs list filtered to exactly the runs it counts.
import Link from "@/components/ui/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { getJson } from "@/lib/http/client";
import { formatCount } from "@/lib/format/figures";
import type { MetricFilters, MetricsDashboard } from "@/lib/metrics/schemas";
import { RUN_TRIGGER_LABELS, RUN_TRIGGERS, type RunTrigger, type RunTriggerSplit } from "@/lib/runs/triggers";
import { gridEndMs } from "./chart-data";
import { keyColor } from "./series-colors";

const REFRESH_MS = 30_000;

/** The query string of the split for a dashboard answer: its whole grid's start range (as the tiles' links) and its run filters. */
export function triggerSplitSearch(range: MetricsDashboard["range"], filters: MetricFilters): string {
  const params = new URLSearchParams({ from: new Date(Date.parse(range.from)).toISOString(), to: new Date(gridEndMs(range) - 1).toISOString() });
  // Runs are not split by model or tool (the page says so), so those filters are not sent.
  for (const key of ["graph", "version", "startedBy"] as const) if (filters[key] !== undefined) params.set(key, String(filters[key]));
  return params.toString();
}

/**
 * The runs list of one trigger's bar: the split's own query (start range, graph, version, starter) and
 * `trigger`, which the list reads with the split's rule (lib/runs/triggers.ts runTriggerWhere), so it
 * lists exactly the runs the bar counts; `experiments=1` as the split counts experiment runs too.
 */
export function triggerRunsHref(search: string, trigger: RunTrigger): string {
  const params = new URLSearchParams(search);
  params.set("trigger", trigger);
  params.set("experiments", "1");
  return `/runs?${params.toString()}`;
}

export function TriggerSplit({ range, filters, colors }: { range: MetricsDashboard["range"]; filters: MetricFilters; colors: Map<string, string> }) {
  const search = triggerSplitSearch(range, filters);
  const split = useQuery({
    queryKey: ["run-triggers", search],
    queryFn: () => getJson<RunTriggerSplit>(`/api/runs/triggers?${search}`, { what: "how runs started" }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  const data = split.data;
  return (
    <Card className="px-4 py-3" data-testid="runs-by-trigger" aria-label="How runs started">
      <p className="text-xs text-zinc-500">How the runs started in this range began</p>
      {split.error ? <p className="mt-1 text-sm text-red-700">{split.error.message}</p> : null}
      {data ? (
        <>
          <div className="mt-2 flex h-3 w-full overflow-hidden rounded bg-zinc-100" role="img" aria-label={RUN_TRIGGERS.map((t) => `${RUN_TRIGGER_LABELS[t]}: ${data.counts[t]}`).join(", ")}>
            {data.total > 0
              ? RUN_TRIGGERS.filter((t) => data.counts[t] > 0).map((t) => (
                  // The legend's links are the keyboard's and screen reader's way in; a segment is a mouse's shortcut to the same list.
                  <Link key={t} href={triggerRunsHref(search, t)} tabIndex={-1} aria-hidden title={`${RUN_TRIGGER_LABELS[t]}: open these runs`} className="block h-full hover:opacity-80" style={{ width: `${(100 * data.counts[t]) / data.total}%`, backgroundColor: colors.get(t) ?? keyColor(t) }} />
                ))
              : null}
          </div>
          <ul className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-sm">
            {RUN_TRIGGERS.map((t) => (
              <li key={t}>
                <Link href={triggerRunsHref(search, t)} className="flex items-center gap-1.5 hover:underline" aria-label={`${RUN_TRIGGER_LABELS[t]}: ${data.counts[t]}. Open these runs`}>
                  <span aria-hidden className="inline-block h-2.5 w-2.5 rounded-sm" style={{ backgroundColor: colors.get(t) ?? keyColor(t) }} />
                  <span className="text-zinc-600">{RUN_TRIGGER_LABELS[t]}</span>
                  <span className="font-semibold tabular-nums text-zinc-900" data-testid={`runs-by-trigger-${t}`}>
                    {formatCount(data.counts[t])}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </>
      ) : !split.error ? (
        <p className="mt-1 text-sm text-zinc-500">Counting…</p>
      ) : null}
    </Card>
  );
}
