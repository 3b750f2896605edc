import "server-only";
// Online evaluators, one function per operation (create, change, delete, read,
// backfill), called by the routes, server actions and client alike through
// operations.ts. Every change is audited in its own transaction; then the
// evaluator's workflow is started (create, enable) so live runs are scored. A
// Temporal outage never loses a change: the row is the truth, the workflow reads
// it on every pass, and each worker ensures the workflows of enabled evaluators
// at boot (worker/online-evaluators.ts).
import type { Client } from "@temporalio/client";
import type { Db } from "../../db/prisma";
import { writeTransaction } from "../../db/transactions";
import { appendAuditInTransaction } from "../../audit/write";
import { AppError, ConflictError, ValidationError } from "../../errors";
import { checkJsonSchema } from "../../json-schema/validator";
import { readRootAndTask } from "../../run-ledger/evaluation-reads";
import { evaluatorCheckIssues } from "../validate";
import { mcpCheckProblems } from "../../agents/mcp-references";
import { mcpCheckOf } from "../../guardrails/custom-checks";
import { emptyStatusCounts, toBackfillView, toEvaluationView, toEvaluatorView, utcDayStart, type EvaluatorRow, type EvaluatorStats } from "../rows";
import { ensureEvaluatorWorkflow, startBackfillWorkflow } from "../temporal";
import { EVALUATOR_LIMITS, type BackfillView, type EvaluationStatus, type EvaluationView, type EvaluatorCheck, type EvaluatorView } from "../schemas";
import type { createEvaluatorInput, updateEvaluatorInput, backfillInput } from "../schemas";
import type { z } from "zod";

interface Actor {
  id: string;
}

export interface EvaluatorDeps {
  db: Db;
  /** Null: no Temporal here (the workflow is ensured by the next worker to start). */
  temporal: Client | null;
  taskQueue: string;
}

export class EvaluatorNotFound extends AppError {
  constructor(id: string) {
    super("not_found", 404, `There is no evaluator ${id}`);
    this.name = "EvaluatorNotFound";
  }
}

const randomSuffix = () => crypto.randomUUID().replaceAll("-", "").slice(0, 20);
const evaluatorId = () => `oev_${randomSuffix()}`;
const backfillId = () => `obf_${randomSuffix()}`;

const DAY_MS = 24 * 3600 * 1000;

async function statsOf(db: Db, ids: readonly string[], now: Date): Promise<Map<string, EvaluatorStats>> {
  const stats = new Map<string, EvaluatorStats>(ids.map((id) => [id, { spentTodayUsd: 0, last24h: emptyStatusCounts(), meanScore24h: null }]));
  if (!ids.length) return stats;
  const since = new Date(now.getTime() - DAY_MS);
  const [spent, counts, means] = await Promise.all([
    db.onlineEvaluation.groupBy({ by: ["evaluatorId"], where: { evaluatorId: { in: [...ids] }, evaluatedAt: { gte: utcDayStart(now) } }, _sum: { costUsd: true } }),
    db.onlineEvaluation.groupBy({ by: ["evaluatorId", "status"], where: { evaluatorId: { in: [...ids] }, claimedAt: { gte: since } }, _count: { _all: true } }),
    db.onlineEvaluation.groupBy({ by: ["evaluatorId"], where: { evaluatorId: { in: [...ids] }, status: "scored", evaluatedAt: { gte: since }, meanScore: { not: null } }, _avg: { meanScore: true } }),
  ]);
  for (const row of spent) {
    const entry = stats.get(row.evaluatorId);
    if (entry) entry.spentTodayUsd = row._sum.costUsd ?? 0;
  }
  for (const row of counts) {
    const entry = stats.get(row.evaluatorId);
    if (entry && row.status in entry.last24h) entry.last24h[row.status as EvaluationStatus] = row._count._all;
  }
  for (const row of means) {
    const entry = stats.get(row.evaluatorId);
    if (entry) entry.meanScore24h = row._avg.meanScore ?? null;
  }
  return stats;
}

async function viewsOf(db: Db, rows: EvaluatorRow[]): Promise<EvaluatorView[]> {
  const stats = await statsOf(db, rows.map((row) => row.id), new Date());
  return rows.map((row) => toEvaluatorView(row, stats.get(row.id) ?? { spentTodayUsd: 0, last24h: emptyStatusCounts(), meanScore24h: null }));
}

/** Every evaluator, by name, with its last day's figures. */
export async function listEvaluators(deps: EvaluatorDeps): Promise<EvaluatorView[]> {
  return viewsOf(deps.db, await deps.db.onlineEvaluator.findMany({ orderBy: { name: "asc" } }));
}

async function rowOf(db: Db, id: string): Promise<EvaluatorRow> {
  const row = await db.onlineEvaluator.findUnique({ where: { id } });
  if (!row) throw new EvaluatorNotFound(id);
  return row;
}

export async function getEvaluator(deps: EvaluatorDeps, id: string): Promise<EvaluatorView> {
  const [view] = await viewsOf(deps.db, [await rowOf(deps.db, id)]);
  if (!view) throw new EvaluatorNotFound(id);
  return view;
}

/** 422 naming each field that points at nothing: the graph (and its version), a dataset, a check that cannot run. */
async function checkReferences(db: Db, fields: { graph: string; version?: number | null; checks?: EvaluatorCheck[]; datasetRule?: { dataset: string } | null }): Promise<void> {
  const issues: { path: string; message: string }[] = [];
  const agent = await db.agent.findUnique({ where: { name: fields.graph }, select: { id: true } });
  if (!agent) issues.push({ path: "graph", message: `there is no saved graph named "${fields.graph}"` });
  else if (fields.version !== undefined && fields.version !== null) {
    const version = await db.agentVersion.findFirst({ where: { agentId: agent.id, version: fields.version }, select: { id: true } });
    if (!version) issues.push({ path: "version", message: `graph "${fields.graph}" has no version ${fields.version}` });
  }
  if (fields.checks) {
    issues.push(...evaluatorCheckIssues(fields.checks, checkJsonSchema));
    const mcpChecks = fields.checks.flatMap((entry, index) => {
      const named = entry.source === "guardrail" && entry.check.type === "custom" ? mcpCheckOf(entry.check.check) : null;
      return named ? [{ ...named, path: `checks.${index}.check.check` }] : [];
    });
    issues.push(...(await mcpCheckProblems(db, mcpChecks)));
  }
  if (fields.datasetRule) {
    const dataset = await db.dataset.findUnique({ where: { name: fields.datasetRule.dataset }, select: { archivedAt: true } });
    if (!dataset) issues.push({ path: "datasetRule.dataset", message: `there is no dataset named "${fields.datasetRule.dataset}"` });
    else if (dataset.archivedAt) issues.push({ path: "datasetRule.dataset", message: `dataset "${fields.datasetRule.dataset}" is archived` });
  }
  if (issues.length) throw new ValidationError(issues, issues.map((issue) => `${issue.path}: ${issue.message}`).join("; "));
}

/** Starts the evaluator's workflow; a Temporal failure is logged, not the caller's error (the worker's boot ensures it). */
async function ensureWorkflow(deps: EvaluatorDeps, id: string): Promise<void> {
  if (!deps.temporal) return;
  try {
    await ensureEvaluatorWorkflow(deps.temporal, deps.taskQueue, id);
  } catch (error) {
    console.error(`online evaluation: the workflow of evaluator ${id} was not started (the next worker to start will): ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** 409 when the creator, or the workspace, already keeps as many evaluators as EVALUATOR_LIMITS allows. */
async function checkEvaluatorLimits(tx: Pick<Db, "onlineEvaluator">, actor: Actor): Promise<void> {
  const mine = await tx.onlineEvaluator.count({ where: { createdById: actor.id } });
  if (mine >= EVALUATOR_LIMITS.perUser) throw new ConflictError(`You already have ${mine} evaluators, the most one person may create (${EVALUATOR_LIMITS.perUser}); delete one you no longer need first`);
  const all = await tx.onlineEvaluator.count();
  if (all >= EVALUATOR_LIMITS.perWorkspace) throw new ConflictError(`The workspace already has ${all} evaluators, the most it may keep (${EVALUATOR_LIMITS.perWorkspace}); delete one no longer needed first`);
}

type CreateInput = z.infer<typeof createEvaluatorInput>;
type UpdateInput = z.infer<typeof updateEvaluatorInput>;
type StartBackfillInput = z.infer<typeof backfillInput>;

/** Creates an evaluator (builders and admins); it scores the runs that end from now on. A name in use, or a limit of EVALUATOR_LIMITS reached → 409. */
export async function createEvaluator(deps: EvaluatorDeps, input: CreateInput, actor: Actor): Promise<EvaluatorView> {
  await checkReferences(deps.db, input);
  const row = await writeTransaction(deps.db, async (tx) => {
    if (await tx.onlineEvaluator.findUnique({ where: { name: input.name }, select: { id: true } })) throw new ConflictError(`An evaluator named "${input.name}" already exists`);
    await checkEvaluatorLimits(tx, actor);
    const created = await tx.onlineEvaluator.create({
      data: {
        id: evaluatorId(),
        name: input.name,
        description: input.description,
        graph: input.graph,
        version: input.version,
        label: input.label,
        filters: JSON.stringify(input.filters),
        target: input.target,
        checks: JSON.stringify(input.checks),
        expectations: JSON.stringify(input.expectations),
        samplingRate: input.samplingRate,
        dailySpendCapUsd: input.dailySpendCapUsd,
        delaySeconds: input.delaySeconds,
        datasetRule: input.datasetRule ? JSON.stringify(input.datasetRule) : null,
        enabled: input.enabled,
        activeFrom: new Date(),
        createdById: actor.id,
        updatedById: actor.id,
      },
    });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "evaluator.created", target: created.id, details: { name: created.name, graph: created.graph, checks: input.checks.length, samplingRate: created.samplingRate, enabled: created.enabled } });
    return created;
  });
  if (row.enabled) await ensureWorkflow(deps, row.id);
  return getEvaluator(deps, row.id);
}

/** Changes an evaluator (builders and admins); enabling it starts its workflow, disabling ends it at its next pass. */
export async function updateEvaluator(deps: EvaluatorDeps, input: UpdateInput, actor: Actor): Promise<EvaluatorView> {
  const { id, ...patch } = input;
  const current = await rowOf(deps.db, id);
  await checkReferences(deps.db, { graph: current.graph, ...(patch.version === undefined ? {} : { version: patch.version }), ...(patch.checks ? { checks: patch.checks } : {}), ...(patch.datasetRule === undefined ? {} : { datasetRule: patch.datasetRule }) });
  const row = await writeTransaction(deps.db, async (tx) => {
    if (!(await tx.onlineEvaluator.findUnique({ where: { id }, select: { id: true } }))) throw new EvaluatorNotFound(id);
    const updated = await tx.onlineEvaluator.update({
      where: { id },
      data: {
        ...(patch.description === undefined ? {} : { description: patch.description }),
        ...(patch.version === undefined ? {} : { version: patch.version }),
        ...(patch.label === undefined ? {} : { label: patch.label }),
        ...(patch.filters === undefined ? {} : { filters: JSON.stringify(patch.filters) }),
        ...(patch.target === undefined ? {} : { target: patch.target }),
        ...(patch.checks === undefined ? {} : { checks: JSON.stringify(patch.checks) }),
        ...(patch.expectations === undefined ? {} : { expectations: JSON.stringify(patch.expectations) }),
        ...(patch.samplingRate === undefined ? {} : { samplingRate: patch.samplingRate }),
        ...(patch.dailySpendCapUsd === undefined ? {} : { dailySpendCapUsd: patch.dailySpendCapUsd }),
        ...(patch.delaySeconds === undefined ? {} : { delaySeconds: patch.delaySeconds }),
        ...(patch.datasetRule === undefined ? {} : { datasetRule: patch.datasetRule ? JSON.stringify(patch.datasetRule) : null }),
        ...(patch.enabled === undefined ? {} : { enabled: patch.enabled }),
        updatedById: actor.id,
      },
    });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "evaluator.updated", target: id, details: { name: updated.name, changed: Object.keys(patch).sort(), enabled: updated.enabled } });
    return updated;
  });
  if (row.enabled) await ensureWorkflow(deps, row.id);
  return getEvaluator(deps, row.id);
}

/** Deletes an evaluator with its evaluations and backfills (builders and admins); its workflow ends at its next pass. */
export async function deleteEvaluator(deps: EvaluatorDeps, id: string, actor: Actor): Promise<{ deleted: true }> {
  await writeTransaction(deps.db, async (tx) => {
    const current = await tx.onlineEvaluator.findUnique({ where: { id } });
    if (!current) throw new EvaluatorNotFound(id);
    const evaluations = await tx.onlineEvaluation.count({ where: { evaluatorId: id } });
    await tx.onlineEvaluator.delete({ where: { id } });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "evaluator.deleted", target: id, details: { name: current.name, graph: current.graph, evaluations } });
  });
  return { deleted: true };
}

/** Starts a backfill over runs that ended in [from, to) (builders and admins); runs already evaluated stay as they are. */
export async function startBackfill(deps: EvaluatorDeps, input: StartBackfillInput, actor: Actor): Promise<BackfillView> {
  const from = new Date(input.from);
  const to = new Date(input.to);
  if (to.getTime() > Date.now() + 60_000) throw new ValidationError([{ path: "to", message: "a backfill covers the past: to may not be in the future" }], "A backfill covers the past: to may not be in the future");
  const row = await writeTransaction(deps.db, async (tx) => {
    const evaluator = await tx.onlineEvaluator.findUnique({ where: { id: input.id }, select: { id: true, name: true } });
    if (!evaluator) throw new EvaluatorNotFound(input.id);
    const running = await tx.onlineEvaluationBackfill.count({ where: { evaluatorId: input.id, status: "running" } });
    if (running >= MAX_RUNNING_BACKFILLS) throw new ConflictError(`Evaluator ${evaluator.name} already has ${running} backfills running; wait for one to finish`);
    const created = await tx.onlineEvaluationBackfill.create({ data: { id: backfillId(), evaluatorId: input.id, from, to, requestedById: actor.id } });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "evaluator.backfill_started", target: input.id, details: { name: evaluator.name, backfillId: created.id, from: input.from, to: input.to } });
    return created;
  });
  if (deps.temporal) {
    try {
      await startBackfillWorkflow(deps.temporal, deps.taskQueue, row.id);
    } catch (error) {
      console.error(`online evaluation: backfill ${row.id} not started (the next worker to start will): ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return toBackfillView(row);
}

/** Backfills running at once per evaluator, at most. */
export const MAX_RUNNING_BACKFILLS = 3;

/** An evaluator's backfills, newest first. */
export async function listBackfills(deps: EvaluatorDeps, id: string): Promise<BackfillView[]> {
  await rowOf(deps.db, id);
  const rows = await deps.db.onlineEvaluationBackfill.findMany({ where: { evaluatorId: id }, orderBy: { createdAt: "desc" }, take: 100 });
  return rows.map(toBackfillView);
}

/** Every evaluator's decision on a run (its root's), with the scores, by evaluator name. */
export async function evaluationsOfRun(deps: EvaluatorDeps, runId: string): Promise<EvaluationView[]> {
  const run = await readRootAndTask(deps.db, runId);
  if (!run) throw new AppError("not_found", 404, `There is no run ${runId}`);
  const rows = await deps.db.onlineEvaluation.findMany({ where: { runId: run.rootRunId }, include: { scores: { orderBy: { scorer: "asc" } }, evaluator: { select: { name: true } } } });
  return rows.map((row) => toEvaluationView(row, row.evaluator.name, row.scores)).sort((a, b) => a.evaluator.localeCompare(b.evaluator));
}
