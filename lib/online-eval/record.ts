// Writing an evaluation's outcome: scores, status, mean and cost in ONE
// transaction that applies only while the row is still `pending`. A scoring
// activity retried after a worker died (its first attempt may have written, or
// not) finds the row scored and writes nothing: a run is scored once.
// No `server-only`: the worker's activity calls it.
import type { Db } from "../db/prisma";
import { writeTransaction } from "../db/transactions";
import { markRunSpanScore } from "../run-ledger/evaluation-writes";
import type { EvaluationScoreView } from "./schemas";
import { meanScoreOf } from "./scoring";

/** Attempts at scoring one evaluation before it is recorded as failed (a run that crashes its scorer every time). */
export const MAX_SCORING_ATTEMPTS = 3;

/** Counts an attempt on a pending row; answers the attempt's number, or null when the row is no longer pending. */
export async function beginAttempt(db: Db, evaluationId: string): Promise<number | null> {
  const updated = await db.onlineEvaluation.updateMany({ where: { id: evaluationId, status: "pending" }, data: { attempts: { increment: 1 } } });
  if (updated.count === 0) return null;
  const row = await db.onlineEvaluation.findUnique({ where: { id: evaluationId }, select: { attempts: true } });
  return row?.attempts ?? null;
}

/** Records the scores (once): false when the row was no longer pending, so nothing was written. */
export async function recordScores(db: Db, evaluation: { id: string; evaluatorId: string; runId: string }, scores: readonly EvaluationScoreView[], now: Date = new Date()): Promise<boolean> {
  const costUsd = scores.reduce((sum, score) => sum + score.costUsd, 0);
  return writeTransaction(db, async (tx) => {
    const claimed = await tx.onlineEvaluation.updateMany({ where: { id: evaluation.id, status: "pending" }, data: { status: "scored", meanScore: meanScoreOf(scores), costUsd, evaluatedAt: now, error: null } });
    if (claimed.count === 0) return false;
    if (scores.length) {
      await tx.onlineEvaluationScore.createMany({
        data: scores.map((score) => ({ id: `oes_${crypto.randomUUID().replaceAll("-", "")}`, evaluationId: evaluation.id, evaluatorId: evaluation.evaluatorId, runId: evaluation.runId, scorer: score.scorer, value: score.value, pass: score.pass, detail: score.detail, costUsd: score.costUsd, createdAt: now })),
      });
      // The score lands on the run's own span too (issue 40 §2), where the trace shows it.
      const mean = meanScoreOf(scores);
      const evaluator = mean === null ? null : await tx.onlineEvaluator.findUnique({ where: { id: evaluation.evaluatorId }, select: { name: true } });
      if (evaluator && mean !== null) await markRunSpanScore(tx, evaluation.runId, evaluator.name, mean);
    }
    return true;
  });
}

/** Records that the evaluation could not be scored, with why (once, while pending); the row is never lost. */
export async function recordFailure(db: Db, evaluationId: string, message: string, costUsd = 0, now: Date = new Date()): Promise<boolean> {
  const updated = await db.onlineEvaluation.updateMany({ where: { id: evaluationId, status: "pending" }, data: { status: "failed", error: message.slice(0, 1_000), costUsd, evaluatedAt: now } });
  return updated.count === 1;
}

/**
 * Records that the evaluation was not scored because today's judge spend reached the evaluator's cap after the run
 * was claimed (once, while pending): the claim reads the cap, but a batch claimed just under it would otherwise all
 * be scored, however far past the cap its judge calls went.
 */
export async function recordSkippedForCap(db: Db, evaluationId: string, now: Date = new Date()): Promise<boolean> {
  const updated = await db.onlineEvaluation.updateMany({ where: { id: evaluationId, status: "pending" }, data: { status: "skipped_cap", evaluatedAt: now } });
  return updated.count === 1;
}
