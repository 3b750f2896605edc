// Turns summed rollup groups into the dashboard's charts: a time grid per range,
// a line per breakdown key, percentiles from summed histogram bins, ratios from
// their two counters. Pure, so its arithmetic is unit-tested without a database.
import { percentileOf, type Resolution, RESOLUTION_MINUTES } from "./histogram";
import { resolutionOfStep, stepMinutesFor } from "./step";
import {
  METRIC_SERIES,
  RUN_STATES,
  STARTED_SERIES,
  type MetricBreakdown,
  type MetricLine,
  type MetricRange,
  type MetricSeriesData,
  type MetricSeriesName,
  type MetricStat,
  type StoredSeriesName,
} from "./schemas";

/** At most this many lines per chart; the rest are summed into one line keyed "other". */
export const MAX_LINES = 12;
const RANGE_MINUTES: Record<Exclude<MetricRange, "custom">, number> = { "1h": 60, "24h": 1440, "7d": 7 * 1440, "30d": 30 * 1440 };

export interface TimeGrid {
  resolution: Resolution;
  /** Slot width in minutes (lib/metrics/step.ts), a multiple of the resolution. */
  stepMinutes: number;
  /** First slot's start and the last slot's end (exclusive), minutes since the epoch. */
  fromMinute: number;
  toMinute: number;
  slots: number;
  /** Where the range ends (ms): now, or a custom range's end. The last slot holds it, so toMinute is at most one bucket later. */
  endMs: number;
}

/**
 * The grid of a range: the step chosen from its span (stepMinutesFor), slots
 * counted back from the bucket that holds the range's end. A range ending now
 * therefore ends now (its last slot is the one being filled, whole on the
 * chart, never a slot of the future) and its activity sits in full-width bars
 * at the right edge. Minute rows for steps under an hour, hourly rows beyond.
 */
export function timeGrid(range: MetricRange, nowMs: number, custom?: { from: string; to: string }): TimeGrid {
  let endMs: number;
  /** The first minute and the minute after the last one the range asks for. */
  let startMinute: number;
  let lastMinute: number;
  if (range === "custom") {
    if (!custom) throw new Error("a custom range needs from and to");
    endMs = Date.parse(custom.to);
    lastMinute = Math.ceil(endMs / 60_000);
    startMinute = Math.min(lastMinute - 1, Math.floor(Date.parse(custom.from) / 60_000));
  } else {
    // The current, unfinished minute is the last one read: it holds everything up to now.
    endMs = nowMs;
    lastMinute = Math.floor(nowMs / 60_000) + 1;
    startMinute = lastMinute - RANGE_MINUTES[range];
  }
  const stepMinutes = stepMinutesFor(lastMinute - startMinute);
  const resolution: Resolution = resolutionOfStep(stepMinutes);
  const size = RESOLUTION_MINUTES[resolution];
  // Hourly rows: the last slot ends with the hour that holds the end, so every slot is whole hours.
  const toMinute = Math.ceil(lastMinute / size) * size;
  const slots = Math.ceil((toMinute - startMinute) / stepMinutes);
  return { resolution, stepMinutes, fromMinute: toMinute - slots * stepMinutes, toMinute, slots, endMs };
}

/** The groups of one series for one key: count and sum per slot, bins per slot. */
interface KeyAccumulator {
  count: number[];
  sum: number[];
  bins: Map<number, number>[];
  totalBins: Map<number, number>;
}

export interface GroupRow {
  series: StoredSeriesName;
  slot: number;
  key: string;
  bin: number;
  count: number;
  sum: number;
}

/** Groups indexed by series, then key. */
export type Indexed = Map<StoredSeriesName, Map<string, KeyAccumulator>>;

export function indexGroups(groups: readonly GroupRow[], slots: number): Indexed {
  const index: Indexed = new Map();
  for (const group of groups) {
    if (group.slot < 0 || group.slot >= slots) continue;
    let byKey = index.get(group.series);
    if (!byKey) index.set(group.series, (byKey = new Map()));
    let acc = byKey.get(group.key);
    if (!acc) {
      acc = { count: new Array<number>(slots).fill(0), sum: new Array<number>(slots).fill(0), bins: [], totalBins: new Map() };
      byKey.set(group.key, acc);
    }
    acc.count[group.slot] = (acc.count[group.slot] ?? 0) + group.count;
    acc.sum[group.slot] = (acc.sum[group.slot] ?? 0) + group.sum;
    if (group.bin >= 0) {
      const slotBins = (acc.bins[group.slot] ??= new Map());
      slotBins.set(group.bin, (slotBins.get(group.bin) ?? 0) + group.count);
      acc.totalBins.set(group.bin, (acc.totalBins.get(group.bin) ?? 0) + group.count);
    }
  }
  return index;
}

const QUANTILE: Partial<Record<MetricStat, number>> = { p50: 0.5, p95: 0.95, p99: 0.99 };

function ratio(numerator: number, denominator: number): number | null {
  return denominator > 0 ? numerator / denominator : null;
}

/**
 * The two counters behind a ratio series, each summed over its labels. The success rate is of the runs
 * started in the step that have ended (completed, failed or cancelled): the runs still working are in
 * neither part, and the runs the tiles count are the ones it divides.
 */
export const RATIO_PARTS: Record<"success_rate" | "routing_fallback_rate", { numerator: StoredSeriesName[]; denominator: StoredSeriesName[] }> = {
  success_rate: { numerator: ["started_completed"], denominator: ["started_completed", "started_failed", "started_cancelled"] },
  routing_fallback_rate: { numerator: ["routing_fallbacks"], denominator: ["routing_decisions"] },
};

/** The runs started, by where they are now: one part per state, in the order they stack. */
const STARTED_PARTS: StoredSeriesName[] = RUN_STATES.map((state) => STARTED_SERIES[state]);

/** Whether a series is drawn a line per breakdown key: runs by state split by their own label are drawn by state. */
export function splitsByKey(name: MetricSeriesName, breakdown: MetricBreakdown): boolean {
  return breakdown !== "none" && !(breakdown === "label" && name === "runs_by_state");
}

/** The stored series a requested series is computed from. */
export function storedSeriesOf(name: MetricSeriesName): StoredSeriesName[] {
  if (name === "success_rate" || name === "routing_fallback_rate") return [...new Set([...RATIO_PARTS[name].numerator, ...RATIO_PARTS[name].denominator])];
  if (name === "runs_by_state") return STARTED_PARTS;
  if (name === "approvals_pending") return [];
  return [name as StoredSeriesName];
}

function sumKeys(index: Indexed, series: readonly StoredSeriesName[], key: string, slots: number): number[] {
  const total = new Array<number>(slots).fill(0);
  for (const name of series) {
    const acc = index.get(name)?.get(key);
    if (acc) for (let i = 0; i < slots; i++) total[i] = (total[i] ?? 0) + (acc.count[i] ?? 0);
  }
  return total;
}

function keysOf(index: Indexed, series: readonly StoredSeriesName[]): string[] {
  const keys = new Set<string>();
  for (const name of series) for (const key of index.get(name)?.keys() ?? []) keys.add(key);
  return [...keys];
}

function sumArray(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** Keeps the MAX_LINES largest lines and folds the rest into "other" (when `fold` can combine them). */
function topLines(lines: MetricLine[], fold: ((rest: MetricLine[]) => MetricLine) | null): MetricLine[] {
  const sorted = [...lines].sort((a, b) => (b.total ?? -1) - (a.total ?? -1) || a.key.localeCompare(b.key));
  if (sorted.length <= MAX_LINES) return sorted;
  const kept = sorted.slice(0, MAX_LINES - 1);
  return fold ? [...kept, fold(sorted.slice(MAX_LINES - 1))] : sorted.slice(0, MAX_LINES);
}

/**
 * One series' chart data. Counters and sums: the count (or amount) per slot.
 * Ratios: numerator / denominator per slot. Latencies: without a breakdown,
 * three lines keyed "p50", "p95" and "p99"; with one, the p95 per key.
 */
export function seriesData(name: MetricSeriesName, index: Indexed, grid: TimeGrid, breakdown: boolean): MetricSeriesData {
  const definition = METRIC_SERIES[name];
  const base = { name, label: definition.label, unit: definition.unit, kind: definition.kind };
  const times = Array.from({ length: grid.slots }, (_, i) => new Date((grid.fromMinute + i * grid.stepMinutes) * 60_000).toISOString());
  const line = (key: string, values: (number | null)[], total: number | null): MetricLine => ({ key, total, points: values.map((value, i) => ({ t: times[i] ?? "", value })) });

  if (definition.kind === "gauge") return { ...base, stat: "count", lines: [] };
  if (name === "runs_by_state") {
    // Unsplit (or split by its own label): a line per state, keyed by it, so the bars stack to the runs started.
    // Split by a dimension: a line per key, every state added up.
    const lines = breakdown
      ? keysOf(index, STARTED_PARTS).map((key) => {
          const values = sumKeys(index, STARTED_PARTS, key, grid.slots);
          return line(key, values, sumArray(values));
        })
      : RUN_STATES.map((state) => {
          // Every key of the state's series: a failed run's key is its reason when the view splits by label.
          const values = keysOf(index, [STARTED_SERIES[state]]).reduce((total, key) => {
            const part = sumKeys(index, [STARTED_SERIES[state]], key, grid.slots);
            return total.map((value, i) => value + (part[i] ?? 0));
          }, new Array<number>(grid.slots).fill(0));
          return line(state, values, sumArray(values));
        });
    return { ...base, stat: "count", lines: breakdown ? topLines(lines, null) : lines };
  }
  if (name === "success_rate" || name === "routing_fallback_rate") {
    const parts = RATIO_PARTS[name];
    const lines = keysOf(index, parts.denominator).map((key) => {
      const top = sumKeys(index, parts.numerator, key, grid.slots);
      const bottom = sumKeys(index, parts.denominator, key, grid.slots);
      return line(key, top.map((value, i) => ratio(value, bottom[i] ?? 0)), ratio(sumArray(top), sumArray(bottom)));
    });
    return { ...base, stat: "rate", lines: topLines(lines, null) };
  }
  const stored = name as StoredSeriesName;
  const byKey = index.get(stored) ?? new Map<string, KeyAccumulator>();
  if (definition.kind === "latency") {
    const all = new Map<number, number>();
    for (const acc of byKey.values()) for (const [bin, count] of acc.totalBins) all.set(bin, (all.get(bin) ?? 0) + count);
    const count = sumArray([...all.values()]);
    const latency = { count, p50: percentileOf(all, 0.5), p95: percentileOf(all, 0.95), p99: percentileOf(all, 0.99) };
    if (!breakdown) {
      const merged: Map<number, number>[] = Array.from({ length: grid.slots }, () => new Map());
      for (const acc of byKey.values())
        acc.bins.forEach((bins, slot) => {
          const target = merged[slot];
          if (target) for (const [bin, c] of bins) target.set(bin, (target.get(bin) ?? 0) + c);
        });
      const lines = (["p50", "p95", "p99"] as const).map((stat) => line(stat, merged.map((bins) => percentileOf(bins, QUANTILE[stat] ?? 0.95)), latency[stat]));
      return { ...base, stat: "p95", lines, latency };
    }
    const lines = [...byKey.entries()].map(([key, acc]) =>
      line(key, Array.from({ length: grid.slots }, (_, slot) => percentileOf(acc.bins[slot] ?? new Map(), 0.95)), percentileOf(acc.totalBins, 0.95)),
    );
    return { ...base, stat: "p95", lines: topLines(lines, null), latency };
  }
  const useSum = definition.kind === "sum";
  const lines = [...byKey.entries()].map(([key, acc]) => {
    const values = useSum ? acc.sum : acc.count;
    return line(key, [...values], sumArray(values));
  });
  const fold = (rest: MetricLine[]): MetricLine =>
    line("other", Array.from({ length: grid.slots }, (_, i) => sumArray(rest.map((l) => l.points[i]?.value ?? 0))), sumArray(rest.map((l) => l.total ?? 0)));
  return { ...base, stat: useSum ? "sum" : "count", lines: topLines(lines, fold) };
}

/** A series' one number over the whole grid, whatever the breakdown: a counter's count, a sum, a ratio, a latency's p95. */
export function seriesTotal(name: MetricSeriesName, index: Indexed): number | null {
  const definition = METRIC_SERIES[name];
  const across = (series: readonly StoredSeriesName[], field: "count" | "sum"): number => {
    let total = 0;
    for (const stored of series) for (const acc of index.get(stored)?.values() ?? []) total += sumArray(acc[field]);
    return total;
  };
  if (name === "success_rate" || name === "routing_fallback_rate") return ratio(across(RATIO_PARTS[name].numerator, "count"), across(RATIO_PARTS[name].denominator, "count"));
  if (name === "runs_by_state") return across(STARTED_PARTS, "count");
  if (definition.kind === "gauge") return null;
  const stored = name as StoredSeriesName;
  if (definition.kind === "latency") {
    const all = new Map<number, number>();
    for (const acc of index.get(stored)?.values() ?? []) for (const [bin, count] of acc.totalBins) all.set(bin, (all.get(bin) ?? 0) + count);
    return percentileOf(all, 0.95);
  }
  return across([stored], definition.kind === "sum" ? "sum" : "count");
}
