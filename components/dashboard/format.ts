// Numbers of the dashboard in words: one formatter per unit, reusing the run
// pages' duration and cost wording so a figure reads the same everywhere.
import { formatDuration } from "@/components/runs/usage";
import { formatCost } from "@/lib/runs/pricing";
import type { MetricUnit } from "@/lib/metrics/schemas";

const compact = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });

/** A value in full, for totals and the table view ("—" when there is nothing to measure). */
export function formatMetric(value: number | null | undefined, unit: MetricUnit): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  switch (unit) {
    case "count":
      return Math.round(value).toLocaleString("en");
    case "tokens":
      return `${Math.round(value).toLocaleString("en")} tok`;
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
      return value === 0 ? "$0" : value < 1 ? `$${+value.toFixed(3)}` : `$${compact.format(value)}`;
    case "ratio":
      return `${Math.round(value * 100)} %`;
  }
}

/** A bucket's span in the reader's clock: "14:05–14:06", or with the day when the step is a day or more. */
export function formatBucket(startMs: number, stepSeconds: number): string {
  const start = new Date(startMs);
  const end = new Date(startMs + stepSeconds * 1000);
  const day = (d: Date) => d.toLocaleDateString("en", { month: "short", day: "numeric" });
  const time = (d: Date) => d.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });
  if (stepSeconds >= 86_400) return day(start);
  return `${day(start)} ${time(start)}–${time(end)}`;
}
