"use client";
// A label's traffic split on the overview (lib/labels): for each label with a
// split, both versions side by side over the page's start range — runs, success
// rate, median latency, cost and mean score (each online evaluator's mean
// beneath it) — and one sentence on whether the difference is beyond noise (the
// experiments' statistics). Nothing shows while no label has a split.
import { Fragment } from "react";
import Link from "@/components/ui/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { getJson } from "@/lib/http/client";
import { formatCost, formatCount, formatDuration } from "@/lib/format/figures";
import type { LabelComparison, VariantStats } from "@/lib/labels/schemas";
import type { MetricFilters, MetricsDashboard } from "@/lib/metrics/schemas";
import { gridEndMs } from "./chart-data";

const REFRESH_MS = 30_000;

const percent = (value: number | null) => (value === null ? "—" : `${(value * 100).toFixed(1)} %`);

/** The query of the card: the page's whole start range and its graph filter. */
export function labelSplitsSearch(range: MetricsDashboard["range"], filters: MetricFilters): string {
  const params = new URLSearchParams({ from: new Date(Date.parse(range.from)).toISOString(), to: new Date(gridEndMs(range) - 1).toISOString() });
  if (filters.graph) params.set("graph", filters.graph);
  return params.toString();
}

function VariantColumn({ comparison, stats }: { comparison: LabelComparison; stats: VariantStats }) {
  const title = stats.variant === "base" ? `v${stats.version ?? "?"} (the label's)` : `v${stats.version ?? "?"} (split, ${comparison.split?.percent ?? 0} %)`;
  return (
    <div className="min-w-[12rem] flex-1 rounded border border-zinc-200 p-2" data-testid={`split-variant-${stats.variant}`}>
      <p className="font-medium text-zinc-900">{title}</p>
      <dl className="mt-1 grid grid-cols-2 gap-x-3 gap-y-0.5 text-xs">
        <dt className="text-zinc-500">Runs</dt>
        <dd className="tabular-nums" data-testid="split-runs">
          <Link className="hover:underline" href={`/runs?graph=${encodeURIComponent(comparison.graph)}&label=${encodeURIComponent(comparison.label)}${stats.version ? `&version=${stats.version}` : ""}`}>
            {formatCount(stats.runs)}
          </Link>
        </dd>
        <dt className="text-zinc-500">Success</dt>
        <dd className="tabular-nums">
          {percent(stats.successRate)} {stats.ended ? <span className="text-zinc-500">of {formatCount(stats.ended)} ended</span> : null}
        </dd>
        <dt className="text-zinc-500">Median latency</dt>
        <dd className="tabular-nums">{stats.medianLatencyMs === null ? "—" : formatDuration(stats.medianLatencyMs)}</dd>
        <dt className="text-zinc-500">Cost</dt>
        <dd className="tabular-nums">{stats.cost === null ? "unpriced usage" : formatCost(stats.cost)}</dd>
        <dt className="text-zinc-500">Mean score</dt>
        <dd className="tabular-nums" data-testid="split-score">
          {stats.meanScore === null ? "no scores yet" : `${stats.meanScore.toFixed(2)} (${formatCount(stats.scored)} scored)`}
        </dd>
        {stats.evaluators.map((evaluator) => (
          <Fragment key={evaluator.name}>
            <dt className="truncate pl-2 text-zinc-500" title={`Online evaluator ${evaluator.name}`}>
              {evaluator.name}
            </dt>
            <dd className="tabular-nums" data-testid={`split-evaluator-${evaluator.name}`}>
              {evaluator.meanScore.toFixed(2)} ({formatCount(evaluator.scored)} scored)
            </dd>
          </Fragment>
        ))}
      </dl>
    </div>
  );
}

export function LabelSplits({ range, filters }: { range: MetricsDashboard["range"]; filters: MetricFilters }) {
  const search = labelSplitsSearch(range, filters);
  const query = useQuery({
    queryKey: ["label-splits", search],
    queryFn: () => getJson<{ comparisons: LabelComparison[] }>(`/api/label-splits?${search}`, { what: "label splits" }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  const comparisons = query.data?.comparisons ?? [];
  if (!comparisons.length && !query.error) return null;
  return (
    <Card className="space-y-3 px-4 py-3" data-testid="label-splits" aria-label="Traffic splits">
      <p className="text-xs text-zinc-500">Labels with a traffic split: both versions of the runs each label started in this range</p>
      {query.error ? <p className="text-sm text-red-700">{query.error.message}</p> : null}
      {comparisons.map((comparison) => (
        <div key={`${comparison.graph}/${comparison.label}`} data-testid={`label-split-${comparison.graph}-${comparison.label}`} className="space-y-1">
          <p className="text-sm font-medium text-zinc-900">
            {comparison.graph} · {comparison.label}
          </p>
          <div className="flex flex-wrap gap-2">
            {comparison.variants.map((stats) => (
              <VariantColumn key={stats.variant} comparison={comparison} stats={stats} />
            ))}
          </div>
          <p className="text-xs text-zinc-600" data-testid="split-significance">
            {comparison.significance}
          </p>
        </div>
      ))}
    </Card>
  );
}
