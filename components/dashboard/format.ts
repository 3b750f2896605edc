// Numbers of the dashboard in words: each unit through the product's one
// formatter (lib/format/figures.ts), so a figure reads the same everywhere.
import { formatCost, formatCount, formatDateTimeRange, formatDuration } from "@/lib/format/figures";
import type { MetricKind, MetricUnit } from "@/lib/metrics/schemas";
import { describeStep } from "@/lib/metrics/step";

const compact = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });

/** A value in full, for totals and the table view ("—" when there is nothing to measure). */
export function formatMetric(value: number | null | undefined, unit: MetricUnit): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  switch (unit) {
    case "count":
      return formatCount(value);
    case "tokens":
      return `${formatCount(value)} tok`;
    case "ms":
      return formatDuration(value);
    case "usd":
      return formatCost(value);
    case "ratio":
      return `${(value * 100).toFixed(value === 0 || value === 1 ? 0 : 1)} %`;
  }
}

/** A value on an axis: short ("1.2K", "350 ms", "12 %"). */
export function formatAxis(value: number, unit: MetricUnit): string {
  switch (unit) {
    case "count":
    case "tokens":
      return compact.format(value);
    case "ms":
      return value < 1000 ? `${Math.round(value)} ms` : value < 60_000 ? `${+(value / 1000).toFixed(1)} s` : `${+(value / 60_000).toFixed(1)} min`;
    case "usd":
      return value === 0 ? formatCost(0) : value < 1 ? `$${+value.toFixed(3)}` : `$${compact.format(value)}`;
    case "ratio":
      return `${Math.round(value * 100)} %`;
  }
}

/** A bucket's span in the reader's clock and the product's one date-time format: "Nov 29, 2026, 14:05:00 – 14:05:59". */
export function formatBucket(startMs: number, stepSeconds: number): string {
  return formatDateTimeRange(startMs, startMs + stepSeconds * 1000 - 1000);
}

/** A count too wide for a tile, short: "1.2M", "48.3K"; in full below 100,000 ("12,345"). */
export function formatCompact(value: number): string {
  return Math.abs(value) < 100_000 ? formatCount(value) : compact.format(value);
}

const UNIT_WORDS: Record<MetricUnit, string> = { count: "count", tokens: "tokens", usd: "cost", ms: "duration", ratio: "share" };

/**
 * What a chart's line shows, under its title: the figure per point and the step the answer used (the API's
 * stepSeconds, so it never names a step the figures were not cut by), and what the legend's figures are.
 */
export function chartCaption(kind: MetricKind, unit: MetricUnit, stepSeconds: number, threePercentiles: boolean): string {
  const step = describeStep(stepSeconds);
  if (kind === "latency") return `${threePercentiles ? "p50, p95 and p99" : "p95"} of each ${step}`;
  if (kind === "ratio") return `${UNIT_WORDS[unit]} of each ${step}`;
  return `${UNIT_WORDS[unit]} per ${step} · legend: total`;
}

/** A line's figure in the legend: percentiles and ratios say they are of the whole range, not of a point of the line. */
export function legendFigure(total: number | null | undefined, unit: MetricUnit, kind: MetricKind): string {
  const figure = formatMetric(total, unit);
  return kind === "latency" || kind === "ratio" ? `${figure} over the range` : figure;
}
