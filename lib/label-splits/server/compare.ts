import "server-only";
// The dashboard's split card: for each label with a split, its two sides over a
// start range — runs, success rate, median latency, cost (the trees' priced
// model calls) and mean score (a run's online evaluators' mean when they scored
// it, else its feedback: a named score's value, or the thumbs as 1 or 0), each
// evaluator's mean beside it — and the significance note.
import type { Db } from "../../db/prisma";
import { readLabelRuns } from "../../run-ledger/label-reads";
import { readTreeModelTokens } from "../../run-ledger/list-reads";
import { loadPriceBook } from "../../pricing/server/price-book";
import { addCosts, costAt, periodTime, priceChangeTimes } from "../../pricing/price-book";
import type { LabelComparison } from "../../labels/schemas";
import { splitFromRow } from "../../labels/split";
import { significanceNote, variantStats, type VariantRun } from "../compare-stats";

/** The most runs a comparison reads per label (the newest). */
export const COMPARE_RUNS_MAX = 5_000;
/** The most split labels the card compares at once. */
const SPLIT_LABELS_MAX = 20;

/** Each run's score: the mean of its named scores' values, else its thumbs (up 1, down 0) averaged over raters; null without feedback. */
async function scoresOf(db: Db, runIds: readonly string[]): Promise<Map<string, number>> {
  const rows = runIds.length ? await db.feedback.findMany({ where: { runId: { in: [...runIds] }, spanId: "" }, select: { runId: true, key: true, rating: true, value: true } }) : [];
  const named = new Map<string, number[]>();
  const thumbs = new Map<string, number[]>();
  for (const row of rows) {
    if (row.key !== "" && row.value !== null) named.set(row.runId, [...(named.get(row.runId) ?? []), Math.min(1, Math.max(0, row.value))]);
    else if (row.key === "" && row.rating) thumbs.set(row.runId, [...(thumbs.get(row.runId) ?? []), row.rating === "up" ? 1 : 0]);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const scores = new Map<string, number>();
  for (const id of runIds) {
    const values = named.get(id) ?? thumbs.get(id);
    if (values?.length) scores.set(id, mean(values));
  }
  return scores;
}

/** Each run's online evaluation scores by evaluator name (its scored evaluations' means; live and backfilled alike). */
async function evaluatorScoresOf(db: Db, runIds: readonly string[]): Promise<Map<string, Record<string, number>>> {
  const rows = runIds.length
    ? await db.onlineEvaluation.findMany({ where: { runId: { in: [...runIds] }, status: "scored", meanScore: { not: null } }, select: { runId: true, meanScore: true, evaluator: { select: { name: true } } } })
    : [];
  const byRun = new Map<string, Record<string, number>>();
  for (const row of rows) if (row.meanScore !== null) byRun.set(row.runId, { ...byRun.get(row.runId), [row.evaluator.name]: row.meanScore });
  return byRun;
}

/** A run's score: the mean of its evaluators' when any scored it (measured on every sampled run), else its feedback. */
function runScore(evaluators: Record<string, number> | undefined, feedback: number | undefined): number | null {
  const values = Object.values(evaluators ?? {});
  if (values.length) return values.reduce((a, b) => a + b, 0) / values.length;
  return feedback ?? null;
}

async function costsOf(db: Db, runIds: readonly string[]): Promise<Map<string, number | null>> {
  const prices = await loadPriceBook(db);
  const changes = priceChangeTimes(prices);
  const costs = new Map<string, number | null>(runIds.map((id) => [id, 0]));
  for (const row of await readTreeModelTokens(db, runIds, changes)) {
    costs.set(row.rootRunId, addCosts(costs.get(row.rootRunId) ?? 0, costAt(prices, row.model, { inputTokens: row.inputTokens, outputTokens: row.outputTokens }, periodTime(changes, row.period))));
  }
  return costs;
}

/** Every label with a split (of one graph, or all), compared side by side over the start range. */
export async function compareLabelSplits(db: Db, filter: { graph?: string; from?: Date; to?: Date }): Promise<{ comparisons: LabelComparison[] }> {
  const labels = await db.agentLabel.findMany({
    where: { splitVersion: { not: null }, ...(filter.graph ? { agent: { name: filter.graph } } : {}) },
    include: { agent: { select: { name: true } } },
    orderBy: [{ updatedAt: "desc" }],
    take: SPLIT_LABELS_MAX,
  });
  const comparisons: LabelComparison[] = [];
  for (const label of labels) {
    const split = splitFromRow(label);
    const runs = await readLabelRuns(db, { graph: label.agent.name, label: label.name, from: filter.from, to: filter.to }, COMPARE_RUNS_MAX);
    const ids = runs.map((r) => r.id);
    const [scores, evaluated, costs] = await Promise.all([scoresOf(db, ids), evaluatorScoresOf(db, ids), costsOf(db, ids)]);
    const sides = { base: [] as VariantRun[], split: [] as VariantRun[] };
    for (const run of runs) {
      const side = run.labelVariant === "split" ? sides.split : sides.base;
      side.push({ status: run.status, startedAtMs: run.startedAt.getTime(), endedAtMs: run.endedAt?.getTime() ?? null, cost: costs.get(run.id) ?? 0, score: runScore(evaluated.get(run.id), scores.get(run.id)), evaluatorScores: evaluated.get(run.id) });
    }
    const base = variantStats("base", label.version, sides.base);
    const other = variantStats("split", split?.version ?? null, sides.split);
    const scoresOfSide = (side: VariantRun[]) => side.flatMap((r) => (r.score === null ? [] : [r.score]));
    comparisons.push({
      graph: label.agent.name,
      label: label.name,
      split,
      baseVersion: label.version,
      variants: [base, other],
      significance: significanceNote({ stats: base, scores: scoresOfSide(sides.base) }, { stats: other, scores: scoresOfSide(sides.split) }),
    });
  }
  return { comparisons };
}
