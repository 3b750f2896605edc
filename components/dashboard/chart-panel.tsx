"use client";
// A dashboard card around one series: its title and total, the canvas chart,
// a legend whose entries link to the runs behind each line, and a table view of
// the buckets that have data (the keyboard's and screen reader's way in, and a
// link per bar).
import Link from "@/components/ui/link";
import { useRouter } from "next/navigation";
import { Card } from "@/components/ui/card";
import { DateTimeRange, useInBrowser } from "@/components/ui/date-time";
import { METRIC_SERIES, type MetricBreakdown, type MetricFilters, type MetricSeriesData, type MetricSeriesName, type MetricsDashboard, type MetricUnit } from "@/lib/metrics/schemas";
import { axisEndMs, gridEndMs, gridSeconds, type ChartLine } from "./chart-data";
import { drillDownHref } from "./dashboard-url";
import { chartCaption, formatBucket, formatMetric, legendFigure } from "./format";
import { keyColor } from "./series-colors";
// Imported, not loaded lazily: a lazy chart chunk that arrived after hydration mounted while the user could already
// click, and a click on a tile in that moment was dropped (the drill-down never opened; e2e/figures-agree.spec.ts).
// uPlot is safe to import on the server (it draws only in an effect, after mount).
import { TimeChart } from "./time-chart";

/** The table view lists at most this many buckets (the newest with data). */
const TABLE_ROWS = 48;

export interface ChartPanelProps {
  name: MetricSeriesName;
  data: MetricsDashboard;
  /** The series as answered (with the view's breakdown, or by its own label). */
  series: MetricSeriesData | undefined;
  breakdown: MetricBreakdown;
  filters: MetricFilters;
  style: "bars" | "lines";
  /** The page's colour of each key (series-colors.ts assignColors), so a key is one colour on every chart. */
  colors?: ReadonlyMap<string, string>;
  /** What would fill an empty chart. */
  empty: string;
  /** Lines read by their label (e.g. reasons with spaces instead of underscores). */
  lineLabel?: (key: string) => string;
}

/** Runs by state: what each state line is called (a working run is "still running", as its tile says). */
const STATE_LABELS: Record<string, string> = { completed: "completed", failed: "failed", cancelled: "cancelled", running: "still running" };

export function lineLabelDefault(key: string, breakdown: MetricBreakdown, series?: MetricSeriesName): string {
  if (series === "runs_by_state" && (breakdown === "none" || breakdown === "label")) return STATE_LABELS[key] ?? key;
  if (key === "") return breakdown === "none" ? "all" : "none";
  if (breakdown === "version") return `v${key}`;
  return key.replaceAll("_", " ");
}

export function ChartPanel({ name, data, series, breakdown, filters, style, empty, lineLabel, colors }: ChartPanelProps) {
  const router = useRouter();
  const inBrowser = useInBrowser();
  const def = METRIC_SERIES[name];
  const unit: MetricUnit = def.unit;
  const lines: ChartLine[] = (series?.lines ?? []).map((line) => ({
    key: line.key,
    label: lineLabel ? lineLabel(line.key) : lineLabelDefault(line.key, breakdown, name),
    color: colors?.get(line.key) ?? keyColor(line.key),
    values: line.points.map((p) => p.value),
  }));
  const xs = gridSeconds(data.range, series?.lines ?? []);
  const step = data.range.stepSeconds;
  const gridEnd = gridEndMs(data.range);
  const isLatency = def.kind === "latency";
  const hasData = (series?.lines ?? []).some((l) => l.points.some((p) => p.value !== null && p.value !== 0));
  const rangeFrom = new Date(data.range.from);
  // The runs list's `to` is inclusive: the grid's last instant, not the next range's first.
  const rangeTo = new Date(gridEnd - 1);
  const hrefFor = (lineKey: string, from: Date, to: Date) => drillDownHref({ series: name, lineKey, breakdown, filters, from, to });
  const bucketHref = (idx: number, lineKey: string) => {
    const x = xs[idx];
    if (x === undefined) return null;
    return hrefFor(lineKey, new Date(x * 1000), new Date(x * 1000 + step * 1000 - 1));
  };
  const total = data.totals[name];
  const caption = chartCaption(def.kind, unit, step, series?.lines.some((l) => l.key === "p50") ?? true);
  const testId = `chart-${name}`;

  const filledRows = xs
    .map((x, idx) => ({ x, idx }))
    .filter(({ idx }) => lines.some((l) => (l.values[idx] ?? 0) !== 0))
    .slice(-TABLE_ROWS)
    .reverse();

  return (
    <Card className="min-w-0" data-testid={`panel-${name}`} aria-labelledby={`${testId}-title`}>
      <header className="flex items-start justify-between gap-3 px-4 pt-3">
        <div className="min-w-0">
          <h3 id={`${testId}-title`} className="text-sm font-semibold text-zinc-900">
            {def.label}
          </h3>
          <p className="text-xs text-zinc-500" data-testid={`${testId}-caption`}>
            {caption}
          </p>
        </div>
        <p className={`shrink-0 text-right font-semibold tabular-nums text-zinc-900 ${isLatency ? "text-sm" : "text-lg"}`} data-testid={`${testId}-total`}>
          {/* A latency's one figure is its p95 over the range (the series' total): said, beside three lines. */}
          {isLatency ? `p95 ${formatMetric(total, unit)}` : formatMetric(total, unit)}
        </p>
      </header>
      <div className="px-4 pb-3">
        {hasData ? (
          <>
            <TimeChart
              label={`${def.label} over time`}
              testId={testId}
              xs={xs}
              from={Date.parse(data.range.from) / 1000}
              to={axisEndMs(data.range) / 1000}
              stepSeconds={step}
              lines={lines}
              style={style}
              unit={unit}
              onPick={(idx, line) => {
                const href = bucketHref(idx, lines[line]?.key ?? "");
                if (href) router.push(href);
              }}
            />
            <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs" aria-label={`${def.label} by line`}>
              {lines.map((line, i) => {
                const href = hrefFor(line.key, rangeFrom, rangeTo);
                const figure = legendFigure(series?.lines[i]?.total, unit, def.kind);
                const text = (
                  <>
                    <span className="mr-1 inline-block h-2 w-2 rounded-sm" style={{ backgroundColor: line.color }} />
                    {line.label} <span className="tabular-nums text-zinc-500">{figure}</span>
                  </>
                );
                return (
                  <li key={line.key} data-testid={`${testId}-legend`}>
                    {href ? (
                      <Link href={href} className="text-zinc-700 hover:underline">
                        {text}
                      </Link>
                    ) : (
                      <span className="text-zinc-700">{text}</span>
                    )}
                  </li>
                );
              })}
            </ul>
            <details className="mt-2 text-xs">
              <summary className="cursor-pointer text-zinc-500">Table view</summary>
              <table className="mt-1 w-full text-left" data-testid={`${testId}-table`}>
                <thead className="text-zinc-500">
                  <tr>
                    <th className="py-1 pr-2 font-medium">When</th>
                    {lines.map((l) => (
                      <th key={l.key} className="py-1 pr-2 font-medium">
                        {l.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {filledRows.map(({ x, idx }) => (
                    <tr key={x} className="border-t border-zinc-100">
                      <td className="py-1 pr-2 whitespace-nowrap">
                        {/* Written in the browser only: the server's zone and ICU differ from the reader's, and a text that
                            differs at hydration makes React rebuild the whole page under the reader's pointer. */}
                        <DateTimeRange from={x * 1000} to={x * 1000 + step * 1000 - 1000} />
                      </td>
                      {lines.map((l) => {
                        const value = l.values[idx];
                        const href = value ? bucketHref(idx, l.key) : null;
                        const figure = formatMetric(value, unit);
                        return (
                          <td key={l.key} className="py-1 pr-2 tabular-nums">
                            {href ? (
                              <Link href={href} className="text-indigo-700 hover:underline" aria-label={`${figure} ${l.label}${inBrowser ? `, ${formatBucket(x * 1000, step)}` : ""}: open the runs`}>
                                {figure}
                              </Link>
                            ) : (
                              figure
                            )}
                          </td>
                        );
                      })}
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          </>
        ) : (
          <p className="flex h-[120px] items-center justify-center rounded border border-dashed border-zinc-200 px-4 text-center text-sm text-zinc-500" data-testid={`${testId}-empty`}>
            {empty}
          </p>
        )}
      </div>
    </Card>
  );
}
