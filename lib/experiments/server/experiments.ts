import "server-only";
// Reading experiments (the list, one experiment with a page of its results and
// its progress counted from the result rows) and cancelling one.
import { getDb } from "../../db/server/db";
import { getTemporalClient } from "../../temporal/server/client";
import { appendAudit } from "../../audit/write";
import type { SessionUser } from "../../auth/server/session";
import { AppError } from "../../errors";
import { isNotFound } from "../../engine/temporal-errors";
import type { Score, ScorerConfig } from "../scoring/types";
import {
  EXPERIMENT_STATUSES,
  RESULT_STATUSES,
  RESULTS_PAGE_SIZE,
  type ExperimentDetail,
  type ExperimentResultRow,
  type ExperimentStatus,
  type ExperimentSummary,
  type ExperimentTarget,
  type ResultStatus,
} from "../schemas";
import { experimentWorkflowId } from "../workflow-contract";
import { assertMayControlStarted } from "../../runs/server/run-ownership";

export class ExperimentNotFound extends AppError {
  constructor(id: string) {
    super("not_found", 404, `There is no experiment ${id}`);
    this.name = "ExperimentNotFound";
  }
}

type ExperimentRow = NonNullable<Awaited<ReturnType<ReturnType<typeof getDb>["experiment"]["findUnique"]>>>;

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

const asStatus = (s: string): ExperimentStatus => (EXPERIMENT_STATUSES as readonly string[]).includes(s) ? (s as ExperimentStatus) : "failed";
const asResultStatus = (s: string): ResultStatus => (RESULT_STATUSES as readonly string[]).includes(s) ? (s as ResultStatus) : "failed";

/** Units finished (scored or failed) and failed, per experiment, counted by the database. */
async function progressOf(ids: string[]): Promise<Map<string, { done: number; failed: number }>> {
  const rows = await getDb().experimentResult.groupBy({ by: ["experimentId", "status"], where: { experimentId: { in: ids }, status: { in: ["scored", "failed"] } }, _count: { _all: true } });
  const progress = new Map<string, { done: number; failed: number }>();
  for (const row of rows) {
    const entry = progress.get(row.experimentId) ?? { done: 0, failed: 0 };
    entry.done += row._count._all;
    if (row.status === "failed") entry.failed += row._count._all;
    progress.set(row.experimentId, entry);
  }
  return progress;
}

function summaryOf(row: ExperimentRow, progress: { done: number; failed: number } | undefined): ExperimentSummary {
  return {
    id: row.id,
    name: row.name,
    dataset: { id: row.datasetId, name: row.datasetName, version: row.datasetVersion },
    targets: parseJson<ExperimentTarget[]>(row.targets, []),
    scorers: parseJson<ScorerConfig[]>(row.scorers, []),
    thresholds: parseJson<Record<string, number>>(row.thresholds, {}),
    status: asStatus(row.status),
    progress: { total: row.total, done: progress?.done ?? 0, failed: progress?.failed ?? 0 },
    concurrency: row.concurrency,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
  };
}

/** The newest experiments with their progress. */
export async function listExperiments(limit = 50): Promise<{ experiments: ExperimentSummary[] }> {
  const rows = await getDb().experiment.findMany({ orderBy: { createdAt: "desc" }, take: limit });
  const progress = await progressOf(rows.map((r) => r.id));
  return { experiments: rows.map((row) => summaryOf(row, progress.get(row.id))) };
}

/** One experiment and a page of its results in unit order (`cursor`: the first unit's seq). */
export async function getExperiment(experimentId: string, page: { limit?: number; cursor?: number } = {}): Promise<ExperimentDetail> {
  const db = getDb();
  const row = await db.experiment.findUnique({ where: { id: experimentId } });
  if (!row) throw new ExperimentNotFound(experimentId);
  const limit = page.limit ?? RESULTS_PAGE_SIZE;
  const [progress, rows] = await Promise.all([
    progressOf([row.id]),
    db.experimentResult.findMany({ where: { experimentId, seq: { gte: page.cursor ?? 0 } }, orderBy: { seq: "asc" }, take: limit + 1 }),
  ]);
  const results: ExperimentResultRow[] = rows.slice(0, limit).map((r) => ({
    itemId: r.itemId,
    position: r.position,
    task: r.task,
    tags: parseJson<string[]>(r.tags, []),
    targetIndex: r.targetIndex,
    runId: r.runId,
    status: asResultStatus(r.status),
    scores: parseJson<Score[]>(r.scores, []),
    latencyMs: r.latencyMs,
    inputTokens: r.inputTokens,
    outputTokens: r.outputTokens,
    costUsd: r.costUsd,
  }));
  return { experiment: summaryOf(row, progress.get(row.id)), results, nextCursor: rows.length > limit ? (rows[limit]?.seq ?? null) : null };
}

/**
 * Cancels a running experiment: its workflow cancels the units in flight (each
 * cancels its item run) and records the end; the row says "cancelled" at once.
 * Cancelling a finished experiment changes nothing (409). Only its creator, admins and the workspace
 * policy's role for others' runs may (403 naming the creator), as for the runs it started.
 */
export async function cancelExperiment(experimentId: string, user: SessionUser): Promise<{ accepted: true }> {
  const db = getDb();
  const row = await db.experiment.findUnique({ where: { id: experimentId }, select: { status: true, createdById: true, createdBy: true } });
  if (!row) throw new ExperimentNotFound(experimentId);
  // Its item runs are started as its creator's: cancelling it cancels them, so it follows the rule for their runs.
  await assertMayControlStarted(db, { id: row.createdById, email: row.createdBy }, user, "cancel", "experiment");
  if (row.status !== "running") throw new AppError("conflict", 409, `Experiment ${experimentId} is ${row.status}; only a running experiment can be cancelled`);
  try {
    await getTemporalClient().workflow.getHandle(experimentWorkflowId(experimentId)).cancel();
  } catch (error) {
    // The workflow already ended (it was finishing): the row below still records the cancel.
    if (!isNotFound(error)) throw error;
  }
  await db.experiment.updateMany({ where: { id: experimentId, status: "running" }, data: { status: "cancelled", finishedAt: new Date() } });
  await appendAudit(db, { actorId: user.id, action: "experiment.cancelled", target: experimentId });
  return { accepted: true };
}
