// Confidence intervals for an experiment's summary (95 %): Wilson score
// intervals for pass rates (sound at 0 % and 100 % and for small n, unlike the
// normal approximation) and Student-t intervals for mean scores, clamped to the
// 0..1 range scores live in. Deterministic, so the page and the CSV agree.

export interface Interval {
  /** The point estimate (pass rate or mean). */
  estimate: number;
  low: number;
  high: number;
  n: number;
}

const Z_95 = 1.959963984540054;

/** Two-sided 97.5 % quantiles of Student's t for 1..30 degrees of freedom. */
const T_975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069,
  2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** t quantile for a 95 % interval: the table up to 30 df, a Cornish-Fisher expansion beyond (error < 0.001). */
export function tCritical95(df: number): number {
  if (df < 1) return Number.POSITIVE_INFINITY;
  const tabled = T_975[Math.floor(df) - 1];
  if (tabled !== undefined) return tabled;
  const z = Z_95;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2);
}

/** Wilson score interval for `passes` out of `n`; null when n is 0. */
export function wilsonInterval(passes: number, n: number): Interval | null {
  if (n <= 0) return null;
  const p = passes / n;
  const z2 = Z_95 * Z_95;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (Z_95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return { estimate: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half), n };
}

/** Mean with a 95 % Student-t interval, clamped to [low, high]. One value says nothing about the spread: its interval is the whole range. Null for no values. */
function tInterval(values: readonly number[], low: number, high: number): Interval | null {
  const n = values.length;
  if (n === 0) return null;
  const mean = values.reduce((sum, value) => sum + value, 0) / n;
  if (n === 1) return { estimate: mean, low, high, n };
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1);
  const half = tCritical95(n - 1) * Math.sqrt(variance / n);
  return { estimate: mean, low: Math.max(low, mean - half), high: Math.min(high, mean + half), n };
}

/** Mean score with a 95 % t interval within 0..1. */
export function meanInterval(values: readonly number[]): Interval | null {
  return tInterval(values, 0, 1);
}

/**
 * The mean change of a score from the baseline to a target over the same items
 * (paired: each item is its own control, so item difficulty cancels out), with
 * a 95 % t interval within -1..1. An interval that excludes 0 is a change the
 * sample supports; one that spans 0 may be noise.
 */
export function pairedDeltaInterval(pairs: readonly (readonly [baseline: number, target: number])[]): Interval | null {
  return tInterval(
    pairs.map(([baseline, target]) => target - baseline),
    -1,
    1,
  );
}

/** Whether an interval lies wholly on one side of zero. */
export function excludesZero(interval: Interval | null): boolean {
  return interval !== null && interval.n > 1 && (interval.low > 0 || interval.high < 0);
}

/** "0.72 (0.61–0.83)" for a table cell. */
export function formatInterval(interval: Interval | null, digits = 2, signed = false): string {
  if (!interval) return "—";
  const fmt = (value: number) => {
    const text = value.toFixed(digits);
    return signed && value > 0 && Number(text) !== 0 ? `+${text}` : text;
  };
  return `${fmt(interval.estimate)} (${fmt(interval.low)} to ${fmt(interval.high)})`;
}
