import "server-only";
// Schedules, one function per operation, called by the routes and server
// actions alike through operations.ts. The row is the source of truth: each
// change writes the row and its audit row in one transaction, then brings the
// Temporal Schedule in line (lib/schedules/temporal.ts). When Temporal does not
// answer, the change stays saved with its `syncError` shown and audited, and
// the next change or worker start brings Temporal in line; a firing Temporal
// still makes meanwhile checks the row first (paused, deleted: nothing starts).
// "Run now" and backfill change no row: their audit row is written first, then
// Temporal is asked; a refusal is audited too, so no firing is without a record.
import { ScheduleOverlapPolicy, type Client } from "@temporalio/client";
import type { Db } from "../../db/prisma";
import { writeTransaction } from "../../db/transactions";
import { appendAudit, appendAuditInTransaction } from "../../audit/write";
import { AppError, ConflictError, ValidationError, zodIssues } from "../../errors";
import { REPORT_INPUT } from "../../union-issues";
import { firingsBetween } from "../firings";
import { nextFireTimes, syncTemporalSchedule, temporalScheduleId } from "../temporal";
import {
  SCHEDULE_LIMITS,
  backfillScheduleInput,
  scheduleCreateSchema,
  schedulePatchSchema,
  type BackfillInput,
  type OverlapPolicy,
  type ScheduleCreateInput,
  type ScheduleOutcome,
  type SchedulePatch,
  type ScheduleSettings,
  type ScheduleView,
} from "../schemas";

export interface ScheduleDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
}

interface Actor {
  id: string;
}

type ScheduleRow = NonNullable<Awaited<ReturnType<Db["schedule"]["findUnique"]>>>;

export class ScheduleNotFound extends AppError {
  constructor(id: string) {
    super("not_found", 404, `There is no schedule ${id}`);
    this.name = "ScheduleNotFound";
  }
}

const scheduleId = () => `sch_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;

function parseContext(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function toView(row: ScheduleRow, ownerEmail: string | null, next: string[]): ScheduleView {
  return {
    id: row.id,
    name: row.name,
    graph: row.graphName,
    version: row.version,
    cron: row.cron,
    intervalSeconds: row.intervalSeconds,
    timeZone: row.timeZone,
    jitterSeconds: row.jitterSeconds,
    task: row.task,
    context: parseContext(row.context),
    overlap: row.overlap as OverlapPolicy,
    paused: row.paused,
    pauseNote: row.pauseNote,
    failureLimit: row.failureLimit,
    consecutiveFailures: row.consecutiveFailures,
    owner: { id: row.ownerId, email: ownerEmail },
    lastFiredAt: row.lastFiredAt?.toISOString() ?? null,
    lastRunId: row.lastRunId,
    lastOutcome: row.lastOutcome as ScheduleOutcome | null,
    lastError: row.lastError,
    syncError: row.syncError,
    nextFireTimes: next,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function views(deps: ScheduleDeps, rows: ScheduleRow[]): Promise<ScheduleView[]> {
  const owners = await deps.db.user.findMany({ where: { id: { in: [...new Set(rows.map((row) => row.ownerId))] } }, select: { id: true, email: true } });
  const emails = new Map(owners.map((owner) => [owner.id, owner.email]));
  const next = await Promise.all(rows.map((row) => (row.paused ? Promise.resolve([]) : nextFireTimes(deps.temporal, row.id))));
  return rows.map((row, index) => toView(row, emails.get(row.ownerId) ?? null, next[index] ?? []));
}

/** Every schedule by name (of one graph when named), each with its next firings (everyone signed in). */
export async function listSchedules(deps: ScheduleDeps, graph?: string): Promise<ScheduleView[]> {
  return views(deps, await deps.db.schedule.findMany({ where: graph === undefined ? {} : { graphName: graph }, orderBy: { name: "asc" }, take: SCHEDULE_LIMITS.perWorkspace }));
}

export async function getSchedule(deps: ScheduleDeps, id: string): Promise<ScheduleView> {
  const row = await deps.db.schedule.findUnique({ where: { id } });
  if (!row) throw new ScheduleNotFound(id);
  return (await views(deps, [row]))[0] as ScheduleView;
}

/** 422 naming `graph` or `version` when the schedule would start nothing. */
async function requireGraph(db: Pick<Db, "agentVersion">, graph: string, version: number | null): Promise<void> {
  const found = await db.agentVersion.findFirst({ where: { agent: { name: graph, archivedAt: null }, ...(version === null ? { draft: false } : { version }) }, select: { id: true } });
  if (found) return;
  if (version === null) throw new ValidationError([{ path: "graph", message: `there is no saved agent graph named "${graph}" with a version to run` }]);
  throw new ValidationError([{ path: "version", message: `the saved agent "${graph}" has no version ${version}` }]);
}

function columns(input: ScheduleSettings) {
  return {
    name: input.name,
    graphName: input.graph,
    version: input.version,
    cron: input.cron,
    intervalSeconds: input.intervalSeconds,
    timeZone: input.timeZone,
    jitterSeconds: input.jitterSeconds,
    task: input.task,
    context: JSON.stringify(input.context),
    overlap: input.overlap,
    failureLimit: input.failureLimit,
  };
}

function settingsOf(row: ScheduleRow): ScheduleSettings {
  return {
    name: row.name,
    graph: row.graphName,
    version: row.version,
    cron: row.cron,
    intervalSeconds: row.intervalSeconds,
    timeZone: row.timeZone,
    jitterSeconds: row.jitterSeconds,
    task: row.task,
    context: parseContext(row.context),
    overlap: row.overlap as OverlapPolicy,
    failureLimit: row.failureLimit,
  };
}

/** The audit details of a schedule (the task's length, not its words: they may hold data). */
const auditDetails = (settings: ScheduleSettings) => ({ name: settings.name, graph: settings.graph, version: settings.version, cron: settings.cron, intervalSeconds: settings.intervalSeconds, timeZone: settings.timeZone, overlap: settings.overlap, failureLimit: settings.failureLimit });

const failureText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/**
 * Brings Temporal in line with the row as it is now (re-read: a concurrent change syncs what it wrote),
 * recording the outcome on the row; a failure is audited and kept in `syncError`, not thrown.
 */
export async function syncSchedule(deps: ScheduleDeps, id: string, actorId: string | null): Promise<void> {
  const row = await deps.db.schedule.findUnique({ where: { id } });
  try {
    await syncTemporalSchedule(deps.temporal, deps.taskQueue, id, row);
    if (row?.syncError) await deps.db.schedule.updateMany({ where: { id }, data: { syncError: null } });
  } catch (error) {
    const message = failureText(error);
    console.error(`schedules: Temporal Schedule ${temporalScheduleId(id)} not brought in line: ${message}`);
    if (row) await deps.db.schedule.updateMany({ where: { id }, data: { syncError: message } });
    await appendAudit(deps.db, { actorId, action: "schedule.sync_failed", target: id, details: { error: message } });
  }
}

/** Creates a schedule (builders and admins), owned by its creator; 409 on a name in use or the workspace's limit. */
export async function createSchedule(deps: ScheduleDeps, raw: ScheduleCreateInput, actor: Actor): Promise<ScheduleView> {
  const input = scheduleCreateSchema.parse(raw);
  await requireGraph(deps.db, input.graph, input.version);
  const row = await writeTransaction(deps.db, async (tx) => {
    if (await tx.schedule.findUnique({ where: { name: input.name } })) throw new ConflictError(`A schedule named "${input.name}" already exists`);
    const all = await tx.schedule.count();
    if (all >= SCHEDULE_LIMITS.perWorkspace) throw new ConflictError(`The workspace already has ${all} schedules, the most it may keep (${SCHEDULE_LIMITS.perWorkspace}); delete one no longer needed first`);
    const created = await tx.schedule.create({ data: { id: scheduleId(), ...columns(input), ownerId: actor.id } });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "schedule.created", target: created.id, details: auditDetails(input) });
    return created;
  });
  await syncSchedule(deps, row.id, actor.id);
  return getSchedule(deps, row.id);
}

/** The schedule with the patch applied, checked whole: 422 naming `patch.<field>`. */
function merged(current: ScheduleRow, patch: ReturnType<typeof schedulePatchSchema.parse>): ScheduleSettings {
  const parsed = scheduleCreateSchema.safeParse({ ...settingsOf(current), ...patch }, REPORT_INPUT);
  if (!parsed.success) throw new ValidationError(zodIssues(parsed.error.issues).map((issue) => ({ ...issue, path: `patch.${issue.path}` })));
  return parsed.data;
}

/**
 * Changes a schedule (builders and admins). Whoever changes it becomes its owner: the runs it starts
 * from now on are theirs, so nobody can make runs start under another person's name.
 */
export async function updateSchedule(deps: ScheduleDeps, id: string, raw: SchedulePatch, actor: Actor): Promise<ScheduleView> {
  const patch = schedulePatchSchema.parse(raw);
  const current = await deps.db.schedule.findUnique({ where: { id } });
  if (!current) throw new ScheduleNotFound(id);
  const next = merged(current, patch);
  if (patch.graph !== undefined || patch.version !== undefined) await requireGraph(deps.db, next.graph, next.version);
  await writeTransaction(deps.db, async (tx) => {
    if (!(await tx.schedule.findUnique({ where: { id } }))) throw new ScheduleNotFound(id);
    if (next.name !== current.name && (await tx.schedule.findUnique({ where: { name: next.name } }))) throw new ConflictError(`A schedule named "${next.name}" already exists`);
    await tx.schedule.update({ where: { id }, data: { ...columns(next), ownerId: actor.id } });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "schedule.updated", target: id, details: { ...auditDetails(next), changed: Object.keys(patch).sort(), previousOwnerId: current.ownerId } });
  });
  await syncSchedule(deps, id, actor.id);
  return getSchedule(deps, id);
}

/** Pauses a schedule (builders and admins): no firing starts a run until it is resumed. */
export async function pauseSchedule(deps: ScheduleDeps, id: string, note: string | undefined, actor: Actor): Promise<ScheduleView> {
  const pauseNote = note?.trim() || "paused by a person";
  await writeTransaction(deps.db, async (tx) => {
    const current = await tx.schedule.findUnique({ where: { id } });
    if (!current) throw new ScheduleNotFound(id);
    await tx.schedule.update({ where: { id }, data: { paused: true, pauseNote } });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "schedule.paused", target: id, details: { name: current.name, note: pauseNote } });
  });
  await syncSchedule(deps, id, actor.id);
  return getSchedule(deps, id);
}

/** Resumes a schedule (builders and admins), which the resumer now owns; its count of failures starts again. */
export async function resumeSchedule(deps: ScheduleDeps, id: string, actor: Actor): Promise<ScheduleView> {
  await writeTransaction(deps.db, async (tx) => {
    const current = await tx.schedule.findUnique({ where: { id } });
    if (!current) throw new ScheduleNotFound(id);
    await tx.schedule.update({ where: { id }, data: { paused: false, pauseNote: null, consecutiveFailures: 0, ownerId: actor.id } });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "schedule.resumed", target: id, details: { name: current.name, previousOwnerId: current.ownerId } });
  });
  await syncSchedule(deps, id, actor.id);
  return getSchedule(deps, id);
}

/** Deletes a schedule (builders and admins) and then its Temporal Schedule; its runs stay, linked to the id. */
export async function deleteSchedule(deps: ScheduleDeps, id: string, actor: Actor): Promise<{ deleted: string }> {
  await writeTransaction(deps.db, async (tx) => {
    const current = await tx.schedule.findUnique({ where: { id } });
    if (!current) throw new ScheduleNotFound(id);
    await tx.schedule.delete({ where: { id } });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "schedule.deleted", target: id, details: auditDetails(settingsOf(current)) });
  });
  // A Temporal Schedule left behind by a failure here fires into a missing row, which refuses and removes it.
  await syncSchedule(deps, id, actor.id);
  return { deleted: id };
}

/** A schedule that may fire now: it exists and is not paused (409 otherwise: resume it first). */
async function activeRow(db: Db, id: string, what: string): Promise<ScheduleRow> {
  const row = await db.schedule.findUnique({ where: { id } });
  if (!row) throw new ScheduleNotFound(id);
  if (row.paused) throw new ConflictError(`The schedule "${row.name}" is paused; resume it before ${what}`);
  return row;
}

/** Asks Temporal for an action; a refusal is audited and answered 503. */
async function temporalAction(deps: ScheduleDeps, id: string, actor: Actor, act: () => Promise<void>): Promise<void> {
  try {
    await act();
  } catch (error) {
    const message = failureText(error);
    await appendAudit(deps.db, { actorId: actor.id, action: "schedule.sync_failed", target: id, details: { error: message } });
    throw new AppError("unavailable", 503, `Temporal did not take the request, so nothing started: ${message}`);
  }
}

/** "Run now" (builders and admins): one firing at once, beside any run still working (the overlap policy is not applied). */
export async function triggerSchedule(deps: ScheduleDeps, id: string, actor: Actor): Promise<{ triggered: string }> {
  const row = await activeRow(deps.db, id, "running it now");
  await appendAudit(deps.db, { actorId: actor.id, action: "schedule.triggered", target: id, details: { name: row.name } });
  await temporalAction(deps, id, actor, () => deps.temporal.schedule.getHandle(temporalScheduleId(id)).trigger(ScheduleOverlapPolicy.ALLOW_ALL));
  return { triggered: id };
}

/** Starts the firings of a past range now (builders and admins): at most SCHEDULE_LIMITS.backfillMaxRuns, all at once. */
export async function backfillSchedule(deps: ScheduleDeps, raw: BackfillInput, actor: Actor): Promise<{ backfilled: string; firings: number }> {
  const input = backfillScheduleInput.parse(raw);
  const row = await activeRow(deps.db, input.id, "backfilling it");
  const from = new Date(input.from);
  const to = new Date(input.to);
  if (to.getTime() > Date.now()) throw new ValidationError([{ path: "to", message: "a backfill covers the past; end the range now or earlier" }]);
  const firings = firingsBetween(row, from, to, SCHEDULE_LIMITS.backfillMaxRuns);
  if (firings === 0) throw new ValidationError([{ path: "from", message: "the schedule fires no time in this range" }]);
  if (firings > SCHEDULE_LIMITS.backfillMaxRuns) throw new ValidationError([{ path: "from", message: `the schedule fires more than ${SCHEDULE_LIMITS.backfillMaxRuns} times in this range; shorten it` }]);
  await appendAudit(deps.db, { actorId: actor.id, action: "schedule.backfilled", target: row.id, details: { name: row.name, from: input.from, to: input.to, firings } });
  // Every past firing asked for starts, even while another works: they were asked for by a person, once.
  await temporalAction(deps, row.id, actor, () => deps.temporal.schedule.getHandle(temporalScheduleId(row.id)).backfill({ start: from, end: to, overlap: ScheduleOverlapPolicy.ALLOW_ALL }));
  return { backfilled: row.id, firings };
}
