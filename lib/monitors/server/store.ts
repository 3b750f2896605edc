import "server-only";
// Monitors, one function per operation (create, change, delete, list) and the
// alert reads, called by the routes and server actions alike through
// operations.ts. Every change is audited in its own transaction; disabling or
// deleting a firing monitor resolves its alert there too, so no alert stays
// open on a monitor nobody evaluates (the evaluator delivers its webhook).
import type { Db } from "../../db/prisma";
import { writeTransaction } from "../../db/transactions";
import { appendAuditInTransaction } from "../../audit/write";
import { AppError, ConflictError, ValidationError, zodIssues } from "../../errors";
import { REPORT_INPUT } from "../../union-issues";
import { resolveOpenAlert } from "../evaluate";
import { conditionOf, toAlertView, toMonitorView, type MonitorRow } from "../rows";
import {
  MONITOR_LIMITS,
  alertListQuerySchema,
  monitorCreateSchema,
  monitorConditionSchema,
  monitorPatchSchema,
  type AlertListQuery,
  type AlertView,
  type MonitorCondition,
  type MonitorCreateInput,
  type MonitorPatch,
  type MonitorView,
} from "../schemas";

interface Actor {
  id: string;
}

export class MonitorNotFound extends AppError {
  constructor(id: string) {
    super("not_found", 404, `There is no monitor ${id}`);
    this.name = "MonitorNotFound";
  }
}

const monitorId = () => `mon_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;

async function openAlerts(db: Db, ids: string[]) {
  const rows = ids.length ? await db.monitorAlert.findMany({ where: { openKey: { in: ids } } }) : [];
  return new Map(rows.map((row) => [row.monitorId, row]));
}

/** Every monitor, by name, each with its open alert. */
export async function listMonitors(db: Db): Promise<MonitorView[]> {
  const rows = await db.monitor.findMany({ orderBy: { name: "asc" } });
  const open = await openAlerts(db, rows.map((row) => row.id));
  return rows.map((row) => toMonitorView(row, open.get(row.id) ?? null));
}

export async function getMonitor(db: Db, id: string): Promise<MonitorView> {
  const row = await db.monitor.findUnique({ where: { id } });
  if (!row) throw new MonitorNotFound(id);
  return toMonitorView(row, (await openAlerts(db, [id])).get(id) ?? null);
}

/** Alerts newest first: all of them, the firing ones (the dashboard) or one monitor's history. */
export async function listAlerts(db: Db, query: AlertListQuery = {}): Promise<AlertView[]> {
  const { state, monitorId: id, limit } = alertListQuerySchema.parse(query);
  const rows = await db.monitorAlert.findMany({ where: { ...(state ? { state } : {}), ...(id ? { monitorId: id } : {}) }, orderBy: { firedAt: "desc" }, take: limit });
  return rows.map(toAlertView);
}

function nameTaken(name: string): ConflictError {
  return new ConflictError(`A monitor named "${name}" already exists`);
}

/** The stored columns of a checked condition. */
function conditionColumns(input: MonitorCondition) {
  return {
    series: input.series,
    stat: input.stat ?? null,
    label: input.label ?? null,
    comparator: input.comparator,
    threshold: input.threshold,
    windowMinutes: input.windowMinutes,
    filters: JSON.stringify(input.filters),
  };
}

/** 409 when the creator, or the workspace, already keeps as many monitors as MONITOR_LIMITS allows. */
async function checkMonitorLimits(tx: Pick<Db, "monitor">, actor: Actor): Promise<void> {
  const mine = await tx.monitor.count({ where: { createdById: actor.id } });
  if (mine >= MONITOR_LIMITS.perUser) {
    throw new ConflictError(`You already have ${mine} monitors, the most one person may create (${MONITOR_LIMITS.perUser}); delete one you no longer need first`);
  }
  const all = await tx.monitor.count();
  if (all >= MONITOR_LIMITS.perWorkspace) {
    throw new ConflictError(`The workspace already has ${all} monitors, the most it may keep (${MONITOR_LIMITS.perWorkspace}); delete one no longer needed first`);
  }
}

/** Creates a monitor (builders and admins); a name already used, or a limit of MONITOR_LIMITS reached → 409. */
export async function createMonitor(db: Db, raw: MonitorCreateInput, actor: Actor): Promise<MonitorView> {
  const input = monitorCreateSchema.parse(raw);
  const row = await writeTransaction(db, async (tx) => {
    if (await tx.monitor.findUnique({ where: { name: input.name } })) throw nameTaken(input.name);
    await checkMonitorLimits(tx, actor);
    const created = await tx.monitor.create({
      data: { id: monitorId(), name: input.name, ...conditionColumns(input), enabled: input.enabled, createdById: actor.id, updatedById: actor.id },
    });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "monitor.created", target: created.id, details: { name: created.name, ...conditionOf(created), enabled: created.enabled } });
    return created;
  });
  return toMonitorView(row, null);
}

/** The monitor's condition with the patch applied, checked whole (a new series may not fit the old stat): 422 naming the field. */
function mergedCondition(current: MonitorRow, patch: ReturnType<typeof monitorPatchSchema.parse>) {
  const before = conditionOf(current);
  const merged = {
    series: patch.series ?? before.series,
    stat: patch.stat === undefined ? before.stat : patch.stat,
    label: patch.label === undefined ? before.label : patch.label,
    comparator: patch.comparator ?? before.comparator,
    threshold: patch.threshold ?? before.threshold,
    windowMinutes: patch.windowMinutes ?? before.windowMinutes,
    filters: patch.filters ?? before.filters,
  };
  const parsed = monitorConditionSchema.safeParse(merged, REPORT_INPUT);
  if (!parsed.success) throw new ValidationError(zodIssues(parsed.error.issues).map((issue) => ({ ...issue, path: `patch.${issue.path}` })));
  return parsed.data;
}

/** Changes a monitor (builders and admins). Disabling a firing one resolves its alert (reason monitor_disabled). */
export async function updateMonitor(db: Db, id: string, raw: MonitorPatch, actor: Actor): Promise<MonitorView> {
  const patch = monitorPatchSchema.parse(raw);
  const now = new Date();
  const row = await writeTransaction(db, async (tx) => {
    const current = await tx.monitor.findUnique({ where: { id } });
    if (!current) throw new MonitorNotFound(id);
    if (patch.name && patch.name !== current.name && (await tx.monitor.findUnique({ where: { name: patch.name } }))) throw nameTaken(patch.name);
    const condition = mergedCondition(current, patch);
    const updated = await tx.monitor.update({
      where: { id },
      data: { ...(patch.name ? { name: patch.name } : {}), ...conditionColumns(condition), ...(patch.enabled === undefined ? {} : { enabled: patch.enabled }), updatedById: actor.id },
    });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "monitor.updated", target: id, details: { name: updated.name, changed: Object.keys(patch).sort(), patch } });
    if (!updated.enabled) await resolveOpenAlert(tx, updated, "monitor_disabled", current.lastValue, now, actor.id);
    return updated;
  });
  return getMonitor(db, row.id);
}

/** Deletes a monitor (builders and admins); its alerts stay in the history, a firing one resolved (monitor_deleted). */
export async function deleteMonitor(db: Db, id: string, actor: Actor): Promise<{ deleted: string }> {
  await writeTransaction(db, async (tx) => {
    const current = await tx.monitor.findUnique({ where: { id } });
    if (!current) throw new MonitorNotFound(id);
    await resolveOpenAlert(tx, current, "monitor_deleted", current.lastValue, new Date(), actor.id);
    await tx.monitor.delete({ where: { id } });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "monitor.deleted", target: id, details: { name: current.name, ...conditionOf(current) } });
  });
  return { deleted: id };
}
