// One number of one series over the trailing window, for monitors
// (lib/monitors): the same rollups and arithmetic as the dashboard.
// No "server-only" here: the worker (plain Node) loads this module too (the ledger writer, the monitor evaluator).
import type { Db } from "../../db/prisma";
import { percentileOf } from "../histogram";
import { METRIC_SERIES, seriesValueQuerySchema, type MetricStat, type SeriesValueQuery, type StoredSeriesName } from "../schemas";
import { RATIO_PARTS, storedSeriesOf } from "../assemble";
import { readRollupGroups, type RollupGroup } from "./read";
import { pendingApprovalsNow } from "./pending";

const ENDED: StoredSeriesName[] = ["runs_completed", "runs_failed", "runs_cancelled"];
/** Counters whose `rate` is their share of a whole rather than a count per hour. */
const SHARE_OF: Partial<Record<StoredSeriesName, StoredSeriesName[]>> = {
  runs_completed: ENDED,
  runs_failed: ENDED,
  runs_cancelled: ENDED,
  started_completed: RATIO_PARTS.success_rate.denominator,
  started_failed: RATIO_PARTS.success_rate.denominator,
  started_cancelled: RATIO_PARTS.success_rate.denominator,
  routing_fallbacks: ["routing_decisions"],
};

const QUANTILE = { p50: 0.5, p95: 0.95, p99: 0.99 } as const;

function defaultStat(kind: string): MetricStat {
  if (kind === "latency") return "p95";
  if (kind === "ratio") return "rate";
  if (kind === "sum") return "sum";
  return "count";
}

function total(groups: readonly RollupGroup[], series: readonly StoredSeriesName[], field: "count" | "sum"): number {
  return groups.filter((g) => series.includes(g.series)).reduce((sum, g) => sum + g[field], 0);
}

/**
 * The window as minute rows up to two days, hourly rows beyond (the window then
 * starts at the hour boundary at or before now − windowMinutes).
 */
function windowOf(windowMinutes: number, now: Date): { resolution: number; fromMinute: number; toMinute: number } {
  const toMinute = Math.floor(now.getTime() / 60_000) + 1;
  if (windowMinutes <= 2 * 1440) return { resolution: 1, fromMinute: toMinute - windowMinutes, toMinute };
  return { resolution: 60, fromMinute: Math.floor((toMinute - windowMinutes) / 60) * 60, toMinute };
}

/**
 * A series' value over the last `windowMinutes` (with `label`: only that label,
 * e.g. a failure reason). Stats:
 * - `count`: events (a latency's samples; a ratio's denominator); `sum`: the amount (tokens, USD, ms);
 * - `rate`: a ratio series' ratio; runs_completed / runs_failed / runs_cancelled: their share
 *   of the runs that ended in the window (0..1, e.g. failure rate); started_completed / _failed /
 *   _cancelled: their share of the runs started in the window that have ended (the success rate's
 *   parts); routing_fallbacks: the fallback share of decisions; any other series: its count (sums:
 *   its amount) per hour;
 * - `p50` / `p95` / `p99`: latency series only (ms, within the bins' 4.9 % error), else null.
 * `approvals_pending` is the number waiting now (the window does not apply).
 * Null when there is nothing to compute from (no samples, a ratio over zero).
 */
export async function seriesValue(db: Db, input: SeriesValueQuery, now: Date = new Date()): Promise<number | null> {
  const query = seriesValueQuerySchema.parse(input);
  const definition = METRIC_SERIES[query.series];
  const stat = query.stat ?? defaultStat(definition.kind);
  if (query.series === "approvals_pending") return (await pendingApprovalsNow(db, query.filters, now)).count;
  const window = windowOf(query.windowMinutes, now);
  const read = (series: StoredSeriesName[], label?: string) =>
    readRollupGroups(db, { ...window, stepMinutes: window.toMinute - window.fromMinute, series, breakdown: "none", filters: query.filters, label });

  if (query.series === "success_rate" || query.series === "routing_fallback_rate") {
    // The dashboard's own parts (lib/metrics/assemble.ts): a monitor and the tile divide the same runs.
    const { numerator, denominator } = RATIO_PARTS[query.series];
    const groups = await read(denominator);
    const whole = total(groups, denominator, "count");
    if (stat === "count") return whole;
    return whole > 0 ? total(groups, numerator, "count") / whole : null;
  }
  if (definition.kind === "total") {
    const parts = storedSeriesOf(query.series);
    const count = total(await read(parts), parts, "count");
    if (stat === "rate") return (count * 60) / (window.toMinute - window.fromMinute);
    return stat === "count" || stat === "sum" ? count : null;
  }

  const series = query.series as StoredSeriesName;
  const groups = await read([series], query.label);
  const count = total(groups, [series], "count");
  const amount = total(groups, [series], "sum");
  if (stat === "p50" || stat === "p95" || stat === "p99") {
    if (definition.kind !== "latency") return null;
    const bins = new Map<number, number>();
    for (const group of groups) bins.set(group.bin, (bins.get(group.bin) ?? 0) + group.count);
    return percentileOf(bins, QUANTILE[stat]);
  }
  if (stat === "count") return count;
  if (stat === "sum") return definition.kind === "counter" ? count : amount;
  const whole = SHARE_OF[series];
  if (whole) {
    const base = total(await read(whole), whole, "count");
    return base > 0 ? count / base : null;
  }
  const perHour = 60 / (window.toMinute - window.fromMinute);
  return (definition.kind === "counter" ? count : amount) * perHour;
}
