// The two sides of a label's split, side by side: counts, success rate, median
// latency, cost and mean score, and one sentence on whether the difference is
// more than noise, with the experiments' statistics (lib/experiments/stats.ts).
// A domain of its own, above lib/labels and lib/experiments: lib/runs imports
// lib/labels (a run started by label) and the experiments import lib/runs.
import { excludesZero, formatInterval, meanInterval, tCritical95, wilsonInterval, type Interval } from "../experiments/stats";
import type { VariantStats } from "../labels/schemas";

export interface VariantRun {
  status: string;
  startedAtMs: number;
  endedAtMs: number | null;
  /** US dollars; null when some of its usage has no price. */
  cost: number | null;
  /** The run's score (0..1), or null without one. */
  score: number | null;
  /** Each online evaluator's mean score of the run (0..1), by evaluator name. */
  evaluatorScores?: Readonly<Record<string, number>>;
}

/** Each evaluator that scored some of the runs: how many and the mean, by name. */
function byEvaluator(runs: readonly VariantRun[]): VariantStats["evaluators"] {
  const sums = new Map<string, { scored: number; total: number }>();
  for (const run of runs) {
    for (const [name, score] of Object.entries(run.evaluatorScores ?? {})) {
      const sum = sums.get(name) ?? { scored: 0, total: 0 };
      sums.set(name, { scored: sum.scored + 1, total: sum.total + score });
    }
  }
  return [...sums.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, sum]) => ({ name, scored: sum.scored, meanScore: sum.total / sum.scored }));
}

const ENDED = new Set(["completed", "failed", "cancelled"]);

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? null) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const bounds = (interval: Interval | null) => (interval ? { low: interval.low, high: interval.high } : null);

export function variantStats(variant: VariantStats["variant"], version: number | null, runs: readonly VariantRun[]): VariantStats {
  const ended = runs.filter((r) => ENDED.has(r.status));
  const completed = ended.filter((r) => r.status === "completed").length;
  const scores = runs.flatMap((r) => (r.score === null ? [] : [r.score]));
  const latencies = ended.flatMap((r) => (r.endedAtMs === null ? [] : [r.endedAtMs - r.startedAtMs]));
  const scoreInterval = meanInterval(scores);
  const success = wilsonInterval(completed, ended.length);
  const cost = runs.reduce<number | null>((sum, r) => (sum === null || r.cost === null ? null : sum + r.cost), 0);
  return {
    variant,
    version,
    runs: runs.length,
    ended: ended.length,
    completed,
    successRate: success?.estimate ?? null,
    successInterval: bounds(success),
    medianLatencyMs: median(latencies),
    cost,
    scored: scores.length,
    meanScore: scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null,
    scoreInterval: bounds(scoreInterval),
    evaluators: byEvaluator(runs),
  };
}

/** A Welch interval (95 %) of the difference of two means (second minus first), null with fewer than two values a side. */
export function welchDifference(a: readonly number[], b: readonly number[]): Interval | null {
  if (a.length < 2 || b.length < 2) return null;
  const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const variance = (xs: readonly number[], m: number) => xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);
  const ma = mean(a);
  const mb = mean(b);
  const va = variance(a, ma) / a.length;
  const vb = variance(b, mb) / b.length;
  const se = Math.sqrt(va + vb);
  const diff = mb - ma;
  if (se === 0) return { estimate: diff, low: diff, high: diff, n: a.length + b.length };
  const df = (va + vb) ** 2 / (va ** 2 / (a.length - 1) + vb ** 2 / (b.length - 1));
  const half = tCritical95(df) * se;
  return { estimate: diff, low: diff - half, high: diff + half, n: a.length + b.length };
}

/** The difference of two success rates (second minus first) with a 95 % normal interval; null with no ended run on a side. */
export function rateDifference(a: { completed: number; ended: number }, b: { completed: number; ended: number }): Interval | null {
  if (a.ended === 0 || b.ended === 0) return null;
  const pa = a.completed / a.ended;
  const pb = b.completed / b.ended;
  const se = Math.sqrt((pa * (1 - pa)) / a.ended + (pb * (1 - pb)) / b.ended);
  const diff = pb - pa;
  const half = 1.959963984540054 * se;
  return { estimate: diff, low: diff - half, high: diff + half, n: a.ended + b.ended };
}

/** One sentence for the card: scores first (when both sides have some), else success rates. */
export function significanceNote(base: { stats: VariantStats; scores: readonly number[] }, split: { stats: VariantStats; scores: readonly number[] }): string {
  const names = `v${split.stats.version ?? "?"} against v${base.stats.version ?? "?"}`;
  const scoreDiff = welchDifference(base.scores, split.scores);
  if (scoreDiff) {
    return excludesZero(scoreDiff)
      ? `Mean score ${names}: ${formatInterval(scoreDiff, 2, true)} (95 %), a difference beyond noise.`
      : `Mean score ${names}: ${formatInterval(scoreDiff, 2, true)} (95 %), within noise so far.`;
  }
  const rateDiff = rateDifference(base.stats, split.stats);
  const scoreWord = base.scores.length + split.scores.length === 0 ? "No scores yet; " : "Too few scores to compare; ";
  if (!rateDiff) return `${scoreWord}no run has ended on both sides yet.`;
  return excludesZero(rateDiff) && Math.min(base.stats.ended, split.stats.ended) >= 10
    ? `${scoreWord}success rate ${names}: ${formatInterval(rateDiff, 2, true)} (95 %), a difference beyond noise.`
    : `${scoreWord}success rate ${names}: ${formatInterval(rateDiff, 2, true)} (95 %), within noise so far.`;
}
