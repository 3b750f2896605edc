// The runs list's score filter and column (issue 40 §2), as pure functions: the
// online evaluations a filter selects (a Prisma `where` on online_evaluations)
// and a run's score from its evaluations. lib/runs/server/run-scores.ts runs them.
import { formatScore } from "../format/figures";

/** The runs list's score fields (lib/runs/schemas.ts runFiltersSchema). */
export interface RunScoreFilter {
  evaluator?: string;
  scoreBelow?: number;
  scoreAtLeast?: number;
}

/** The `where` on online_evaluations a score filter reads; the runs list filters its root runs by their runId. */
export interface ScoreFilterWhere {
  status: "scored";
  evaluator?: { name: string };
  meanScore?: { lt?: number; gte?: number; not: null };
}

/** Whether the filter narrows the list at all (an evaluator, or a bound). */
export function hasScoreFilter(filter: RunScoreFilter): boolean {
  return filter.evaluator !== undefined || filter.scoreBelow !== undefined || filter.scoreAtLeast !== undefined;
}

/**
 * The evaluations a filter selects: scored ones only (a skipped or failed run has no score to be low), of the named
 * evaluator when given, and with a mean inside the bounds when given. A run no check could decide (mean null) is
 * neither below nor at least anything, so a bound leaves it out.
 */
export function scoreFilterWhere(filter: RunScoreFilter): ScoreFilterWhere {
  const where: ScoreFilterWhere = { status: "scored" };
  if (filter.evaluator !== undefined) where.evaluator = { name: filter.evaluator };
  if (filter.scoreBelow !== undefined || filter.scoreAtLeast !== undefined) {
    where.meanScore = { not: null, ...(filter.scoreBelow !== undefined ? { lt: filter.scoreBelow } : {}), ...(filter.scoreAtLeast !== undefined ? { gte: filter.scoreAtLeast } : {}) };
  }
  return where;
}

/** One scored evaluation of a run, as the score column reads it. */
export interface ScoredEvaluation {
  runId: string;
  evaluator: string;
  meanScore: number | null;
}

/** Each run's score: the mean of its evaluations' means (those that decided), with each evaluator's figure by name. */
export function runScores(evaluations: readonly ScoredEvaluation[]): Map<string, { mean: number; byEvaluator: { evaluator: string; meanScore: number }[] }> {
  const byRun = new Map<string, { evaluator: string; meanScore: number }[]>();
  for (const e of evaluations) {
    if (e.meanScore === null) continue;
    const list = byRun.get(e.runId) ?? [];
    list.push({ evaluator: e.evaluator, meanScore: e.meanScore });
    byRun.set(e.runId, list);
  }
  return new Map(
    [...byRun].map(([runId, list]) => {
      const sorted = [...list].sort((a, b) => a.evaluator.localeCompare(b.evaluator));
      return [runId, { mean: sorted.reduce((sum, e) => sum + e.meanScore, 0) / sorted.length, byEvaluator: sorted }];
    }),
  );
}

/** The score column's title: each evaluator's mean. */
export function scoreTitle(score: { byEvaluator: { evaluator: string; meanScore: number }[] }): string {
  return score.byEvaluator.map((e) => `${e.evaluator}: ${formatScore(e.meanScore)}`).join("\n");
}
