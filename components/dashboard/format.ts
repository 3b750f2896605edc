// Numbers of the dashboard in words: each unit through the product's one
// formatter (lib/format/figures.ts), so a figure reads the same everywhere.
import { formatCost, formatCount, formatDateTimeRange, formatDuration } from "@/lib/format/figures";
import type { MetricUnit } from "@/lib/metrics/schemas";

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
