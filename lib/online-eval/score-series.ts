// Evaluation scores as series (issue 40 §2): the overview's "Evaluation scores"
// card (each evaluator's mean score per time bucket, split by version or label)
// and the monitors' evaluator_score series. Pure bucketing plus one monitor read
// that takes the database as an argument (no `server-only`: the worker's monitor
// tick loads it through lib/monitors/series.ts, like the approvals' oldest wait).
import { z } from "zod";
import type { Db } from "../db/prisma";
import type { MetricFilters } from "../metrics/schemas";
import { stepMinutesFor } from "../metrics/step";
import { evaluatorNameSchema } from "./schemas";

/** How the card splits an evaluator's scores: by the runs' saved version, or by the label that started them. */
export const SCORE_SPLITS = ["version", "label"] as const;
export type ScoreSplit = (typeof SCORE_SPLITS)[number];

/** At most this range (the dashboard's own longest, 30 days, and a margin). */
const MAX_RANGE_MS = 31 * 24 * 3600 * 1000;

/** GET /api/evaluators/scores: the dashboard's range and graph filter, and the split. */
export const scoreSeriesQuerySchema = z
  .strictObject({
    from: z.iso.datetime({ offset: true }),
    to: z.iso.datetime({ offset: true }),
    graph: z.string().min(1).max(100).optional(),
    evaluator: evaluatorNameSchema.optional(),
    split: z.enum(SCORE_SPLITS).default("version"),
  })
  .superRefine((query, ctx) => {
    const from = Date.parse(query.from);
    const to = Date.parse(query.to);
    if (!(from < to)) ctx.addIssue({ code: "custom", path: ["to"], message: "to must be after from" });
    else if (to - from > MAX_RANGE_MS) ctx.addIssue({ code: "custom", path: ["to"], message: "a range of at most 31 days" });
  });
export type ScoreSeriesQuery = z.output<typeof scoreSeriesQuerySchema>;

/** One evaluator's scores on one side of the split: the mean per bucket (null: nothing scored there) and how many runs. */
export interface ScoreSeriesLine {
  evaluator: string;
  /** "v3", a label's name, or "none" (runs of no saved version / started without a label). */
  key: string;
  means: (number | null)[];
  counts: number[];
  /** Over the whole range. */
  mean: number | null;
  scored: number;
}

export interface ScoreSeries {
  from: string;
  stepSeconds: number;
  /** Each bucket's start (ISO). */
  buckets: string[];
  split: ScoreSplit;
  lines: ScoreSeriesLine[];
}

/** One scored evaluation as the card reads it: placed by when its run ended, so a backfill lands where its runs did. */
export interface ScorePoint {
  evaluator: string;
  version: number | null;
  label: string | null;
  meanScore: number;
  runEndedAt: Date;
}

export function splitKey(point: Pick<ScorePoint, "version" | "label">, split: ScoreSplit): string {
  if (split === "label") return point.label ?? "none";
  return point.version === null ? "none" : `v${point.version}`;
}

/** The step the card buckets a range by: the overview's own (lib/metrics/step.ts), so its points line up with the charts'. */
export function scoreStepSeconds(fromMs: number, toMs: number): number {
  return stepMinutesFor((toMs - fromMs) / 60_000) * 60;
}

/** Buckets scored evaluations of [from, to) into one line per evaluator and split key, sorted by evaluator then key. */
export function bucketScores(points: readonly ScorePoint[], range: { from: Date; to: Date; split: ScoreSplit }): ScoreSeries {
  const fromMs = range.from.getTime();
  const stepSeconds = scoreStepSeconds(fromMs, range.to.getTime());
  const stepMs = stepSeconds * 1000;
  const count = Math.max(1, Math.ceil((range.to.getTime() - fromMs) / stepMs));
  const sums = new Map<string, { evaluator: string; key: string; sums: number[]; counts: number[] }>();
  for (const point of points) {
    const index = Math.floor((point.runEndedAt.getTime() - fromMs) / stepMs);
    if (index < 0 || index >= count) continue;
    const key = splitKey(point, range.split);
    const id = `${point.evaluator}\u0000${key}`;
    let line = sums.get(id);
    if (!line) sums.set(id, (line = { evaluator: point.evaluator, key, sums: new Array<number>(count).fill(0), counts: new Array<number>(count).fill(0) }));
    line.sums[index]! += point.meanScore;
    line.counts[index]! += 1;
  }
  const lines = [...sums.values()]
    .map((line): ScoreSeriesLine => {
      const scored = line.counts.reduce((a, b) => a + b, 0);
      const total = line.sums.reduce((a, b) => a + b, 0);
      return { evaluator: line.evaluator, key: line.key, means: line.sums.map((sum, i) => (line.counts[i] ? sum / line.counts[i]! : null)), counts: line.counts, mean: scored ? total / scored : null, scored };
    })
    .sort((a, b) => a.evaluator.localeCompare(b.evaluator) || a.key.localeCompare(b.key, "en", { numeric: true }));
  return { from: range.from.toISOString(), stepSeconds, buckets: Array.from({ length: count }, (_, i) => new Date(fromMs + i * stepMs).toISOString()), split: range.split, lines };
}

/** The monitor filters evaluator_score honours: an evaluation knows its run's graph and version, nothing else. */
export const EVALUATOR_SCORE_FILTERS = ["graph", "version"] as const;

/**
 * The monitors' evaluator_score: the mean of the run means the named evaluator gave in the trailing window (by when it
 * scored, so a monitor sees a delayed evaluator's scores as they land), of the filter's graph and version; null when it
 * scored none (nothing to compare, so the monitor neither fires nor resolves on it).
 */
export async function meanEvaluatorScore(db: Db, query: { evaluator: string; windowMinutes: number; filters: MetricFilters; now: Date }): Promise<number | null> {
  const since = new Date(query.now.getTime() - query.windowMinutes * 60_000);
  const result = await db.onlineEvaluation.aggregate({
    _avg: { meanScore: true },
    where: {
      status: "scored",
      meanScore: { not: null },
      evaluator: { name: query.evaluator },
      evaluatedAt: { gte: since, lte: query.now },
      ...(query.filters.graph ? { graph: query.filters.graph } : {}),
      ...(query.filters.version !== undefined ? { version: query.filters.version } : {}),
    },
  });
  return result._avg.meanScore ?? null;
}
