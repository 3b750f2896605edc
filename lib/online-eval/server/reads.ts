import "server-only";
// The overview's evaluation scores (issue 40 §2): each evaluator's mean per time
// bucket, split by version or label. The runs list's score filter and column
// are lib/runs/server/run-scores.ts; the monitors' mean is
// lib/online-eval/score-series.ts (the worker loads it too).
import type { Db } from "../../db/prisma";
import { bucketScores, type ScoreSeries, type ScoreSeriesQuery } from "../score-series";

/** The overview reads at most this many scored runs per range; past it the card says it shows the newest. */
export const SCORE_SERIES_ROWS_MAX = 50_000;

/** The overview's "Evaluation scores": each evaluator's mean per bucket of the range, split by version or label. */
export async function readScoreSeries(db: Db, query: ScoreSeriesQuery): Promise<ScoreSeries & { capped: boolean }> {
  const from = new Date(query.from);
  const to = new Date(query.to);
  const rows = await db.onlineEvaluation.findMany({
    where: {
      status: "scored",
      meanScore: { not: null },
      runEndedAt: { gte: from, lt: to },
      ...(query.graph ? { graph: query.graph } : {}),
      ...(query.evaluator ? { evaluator: { name: query.evaluator } } : {}),
    },
    select: { version: true, label: true, meanScore: true, runEndedAt: true, evaluator: { select: { name: true } } },
    orderBy: { runEndedAt: "desc" },
    take: SCORE_SERIES_ROWS_MAX,
  });
  const points = rows.flatMap((row) => (row.meanScore === null ? [] : [{ evaluator: row.evaluator.name, version: row.version, label: row.label, meanScore: row.meanScore, runEndedAt: row.runEndedAt }]));
  return { ...bucketScores(points, { from, to, split: query.split }), capped: rows.length >= SCORE_SERIES_ROWS_MAX };
}
