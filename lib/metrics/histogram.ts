// Latency histograms and time buckets of the metric rollups. Pure (no database),
// so the writer, the query layer and their tests share one definition.

/** Each bin is this factor wider than the one below it (log-spaced bins). */
export const BIN_GROWTH = 1.1;
const LOG_GROWTH = Math.log(BIN_GROWTH);

/**
 * A percentile read from the bins is the bin's geometric middle, so it is within
 * this relative error of the true value (sqrt(1.1) − 1 ≈ 4.9 %) for values ≥ 1 ms;
 * values below 1 ms share bin 0 and read as 0.5 ms.
 */
export const PERCENTILE_RELATIVE_ERROR = Math.sqrt(BIN_GROWTH) - 1;

/** The bin of a duration in ms: 0 for < 1 ms, then 1 + ⌊log₁.₁ ms⌋ (a 30-day wait lands in bin 229). */
export function binOf(ms: number): number {
  if (!Number.isFinite(ms) || ms < 1) return 0;
  // The epsilon keeps exact powers of 1.1 in the bin they start, despite floating-point logs.
  return 1 + Math.floor(Math.log(ms) / LOG_GROWTH + 1e-9);
}

/** The value a bin stands for: the geometric middle of [1.1^(b−1), 1.1^b); 0.5 ms for bin 0. */
export function binValue(bin: number): number {
  if (bin <= 0) return 0.5;
  return Math.pow(BIN_GROWTH, bin - 0.5);
}

/**
 * The q-quantile (0 < q ≤ 1) of a histogram given as bin → count: the value of
 * the bin holding the ⌈q·N⌉-th smallest sample (nearest rank); null when empty.
 */
export function percentileOf(bins: ReadonlyMap<number, number>, q: number): number | null {
  let total = 0;
  for (const count of bins.values()) total += count;
  if (total <= 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const bin of [...bins.keys()].sort((a, b) => a - b)) {
    seen += bins.get(bin) ?? 0;
    if (seen >= rank) return binValue(bin);
  }
  return null;
}

export type Resolution = "minute" | "hour" | "day";
/** Bucket lengths in minutes, as stored in metric_rollups.resolution. */
export const RESOLUTION_MINUTES: Record<Resolution, number> = { minute: 1, hour: 60, day: 1440 };
export const RESOLUTIONS = Object.keys(RESOLUTION_MINUTES) as Resolution[];

/** The start (minutes since the epoch, UTC) of the bucket holding `ms` at a resolution. */
export function bucketOf(ms: number, resolution: Resolution): number {
  const size = RESOLUTION_MINUTES[resolution];
  return Math.floor(ms / 60_000 / size) * size;
}
