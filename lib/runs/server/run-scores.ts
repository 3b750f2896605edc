import "server-only";
// The runs list's reads of online evaluation (issue 40 §2): which root runs a
// score filter leaves, and the score column of a page of runs. Evaluations are
// written by the engine (lib/online-eval); the list reads them here, beside its
// other narrowing filters, so lib/runs never reaches into lib/online-eval.
import type { Db } from "../../db/prisma";
import { MATCHING_TREES_MAX } from "../../search/server/query";
import { runScores, scoreFilterWhere, type RunScoreFilter } from "../run-scores";
import type { RunScore } from "../schemas";

/** The root runs a score filter leaves, newest ended first, at most MATCHING_TREES_MAX (like the runs list's other narrowing filters). */
export async function scoreRootIds(db: Db, filter: RunScoreFilter): Promise<string[]> {
  const rows = await db.onlineEvaluation.findMany({
    where: scoreFilterWhere(filter),
    select: { runId: true },
    distinct: ["runId"],
    orderBy: { runEndedAt: "desc" },
    take: MATCHING_TREES_MAX,
  });
  return rows.map((row) => row.runId);
}

/** The score column of these root runs: each scored run's mean of its evaluations' means and each evaluator's figure. */
export async function readRunScores(db: Db, runIds: readonly string[]): Promise<Map<string, RunScore>> {
  if (runIds.length === 0) return new Map();
  const rows = await db.onlineEvaluation.findMany({
    where: { runId: { in: [...runIds] }, status: "scored" },
    select: { runId: true, meanScore: true, evaluator: { select: { name: true } } },
  });
  return runScores(rows.map((row) => ({ runId: row.runId, evaluator: row.evaluator.name, meanScore: row.meanScore })));
}
