"use client";
// The overview dashboard: the view (range, filters, split) is read from the URL
// with the metrics contract's schema, the figures from GET /api/metrics, and
// refreshed every 30 seconds. Series with a label of their own (failures by
// reason, routing by target…) are drawn by it unless the view splits by
// something else. While the answer says ledger writes are not counted yet, the
// page says so and reads again every second.
import Link from "@/components/ui/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Alert } from "@/components/ui/alert";
import { ChartPanel } from "@/components/dashboard/chart-panel";
import { DerivedLagNote, metricsRefetchMs } from "@/components/dashboard/derived-lag-note";
import { DashboardControls } from "@/components/dashboard/dashboard-controls";
import { drawsOwnLabels, labelledSearch, nextDashboardSearch, readDashboardUrl, type DashboardKey } from "@/components/dashboard/dashboard-url";
import { LABELLED_SERIES, SECTIONS } from "@/components/dashboard/panels";
import { OverviewTiles } from "@/components/dashboard/overview-tiles";
import { TriggerSplit } from "@/components/dashboard/trigger-split";
import { LabelSplits } from "@/components/dashboard/label-splits";
import { EvaluationScoresCard } from "@/components/evaluators/score-series-card";
import { RUN_TRIGGERS } from "@/lib/runs/triggers";
import { assignColors } from "@/components/dashboard/series-colors";
import { DateTime, DateTimeRange } from "@/components/ui/date-time";
import { getJson } from "@/lib/http/client";
import type { MetricSeriesData, MetricSeriesName, MetricsDashboard } from "@/lib/metrics/schemas";
import { describeStep } from "@/lib/metrics/step";

const REFRESH_MS = 30_000;

/** Every line key the page draws, from each answer it shows (a key's colour is chosen once for the page). */
function lineKeys(...answers: (MetricsDashboard | undefined)[]): string[] {
  return answers.flatMap((answer) => Object.values(answer?.series ?? {}).flatMap((series) => series.lines.map((line) => line.key)));
}

/** The answers the server shell read for the URL it rendered, keyed by their query string. */
export type InitialMetrics = Record<string, MetricsDashboard>;

/** A query of GET /api/metrics, starting from the server's answer when it read the same query string. */
function useMetrics(search: string, enabled: boolean, initial: InitialMetrics) {
  const first = initial[search];
  return useQuery({
    queryKey: ["metrics", search],
    queryFn: () => getJson<MetricsDashboard>(`/api/metrics?${search}`, { what: "the dashboard" }),
    enabled,
    initialData: first,
    initialDataUpdatedAt: first ? Date.parse(first.generatedAt) : undefined,
    placeholderData: keepPreviousData,
    // Every second while the answer has ledger writes not counted yet, so the page catches up by itself.
    refetchInterval: (query) => metricsRefetchMs(query.state.data, REFRESH_MS),
  });
}

export function DashboardClient({ initial }: { initial: InitialMetrics }) {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const state = readDashboardUrl(params);
  const search = state.ok ? state.search : "";
  const byOwnLabel = state.ok && drawsOwnLabels(state.query);

  const main = useMetrics(search, state.ok, initial);
  const labelled = useMetrics(labelledSearch(search), byOwnLabel, initial);

  const change = (changes: Partial<Record<DashboardKey, string>>) => {
    const next = nextDashboardSearch(params, changes);
    router.replace(next ? `${pathname}?${next}` : pathname, { scroll: false });
  };

  const data = main.data;
  // The triggers' keys too, so a trigger never shares a colour with a chart's line.
  const colors = assignColors([...lineKeys(data, byOwnLabel ? labelled.data : undefined), ...RUN_TRIGGERS]);
  /** A series and the answer it came from (the labelled query has its own grid and totals). */
  const seriesOf = (name: MetricSeriesName, main: MetricsDashboard): { series: MetricSeriesData | undefined; source: MetricsDashboard } => {
    if (byOwnLabel && (LABELLED_SERIES as readonly string[]).includes(name) && labelled.data) return { series: labelled.data.series[name], source: labelled.data };
    return { series: main.series[name], source: main };
  };

  return (
    <div className="space-y-6">
      <DashboardControls params={params} onChange={change} />
      {!state.ok ? (
        <Alert tone="error">
          <p className="font-medium">This dashboard link has values it cannot show:</p>
          <ul className="mt-1 list-disc pl-5" data-testid="dashboard-url-issues">
            {state.issues.map((issue) => (
              <li key={`${issue.field}:${issue.message}`}>
                <code className="font-mono">{issue.field}</code>: {issue.message}
              </li>
            ))}
          </ul>
          <p className="mt-2">
            <Link href={pathname} className="font-medium underline">
              Show the last 24 hours instead
            </Link>
          </p>
        </Alert>
      ) : null}
      {main.error ? <Alert tone="error">{main.error.message}</Alert> : null}
      {labelled.error && !main.error ? <Alert tone="error">{labelled.error.message}</Alert> : null}
      {data ? (
        <>
          {/* The catch-up note sits beside the range, not above the tiles: appearing and going each second while the
              rollups catch up, on a line of its own it moved the tiles under the reader's pointer. */}
          <div className="flex flex-wrap items-baseline gap-x-3">
            <p className="text-xs text-zinc-500" data-testid="dashboard-range">
              <DateTimeRange from={data.range.from} to={Date.parse(data.range.to) - 1} /> · one point per {describeStep(data.range.stepSeconds)} · refreshed <DateTime value={data.generatedAt} />
            </p>
            <DerivedLagNote lag={data.derived} />
          </div>
          <p className="text-xs text-zinc-600" data-testid="runs-counted">
            The run tiles count the top-level runs started in this range, each once, where it is now, with the runs experiments started; each opens exactly those runs.
            {data.filters.model || data.filters.tool ? " Runs are not split by model or tool: those filters narrow the model and tool figures only." : ""}
          </p>
          <OverviewTiles data={data} />
          <TriggerSplit range={data.range} filters={data.filters} colors={colors} />
          <LabelSplits range={data.range} filters={data.filters} />
          <EvaluationScoresCard range={data.range} filters={data.filters} />
          {SECTIONS.map((section) => (
            <section key={section.title} aria-labelledby={`section-${section.title}`}>
              <h2 id={`section-${section.title}`} className="text-sm font-semibold uppercase tracking-wide text-zinc-500">
                {section.title}
              </h2>
              <p className="mb-3 text-xs text-zinc-500">{section.description}</p>
              <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
                {section.panels.map((panel) => {
                  const { series, source } = seriesOf(panel.name, data);
                  return (
                    <ChartPanel
                      key={panel.name}
                      name={panel.name}
                      data={source}
                      series={series}
                      breakdown={source.breakdown}
                      filters={source.filters}
                      style={panel.style}
                      empty={panel.empty}
                      colors={colors}
                    />
                  );
                })}
              </div>
            </section>
          ))}
        </>
      ) : state.ok && !main.error ? (
        <p className="text-sm text-zinc-500">Loading the dashboard…</p>
      ) : null}
    </div>
  );
}
