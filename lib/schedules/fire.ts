// A schedule's firing, as the worker runs it (worker/activities/schedules.ts):
// the row is read again (deleted or paused: nothing starts), the owner must
// still be allowed to start runs (an enabled builder or admin), and the run is
// started by the same function a person's start uses (lib/runs/launch-saved.ts)
// with the owner as its starter and the schedule linked on its row. When the
// run ends its outcome is recorded: a failure (or a refused firing) counts
// towards the schedule's limit, a completed run resets the count, and at the
// limit the schedule pauses itself with a note.
import { createHash } from "node:crypto";
import type { Db } from "../db/prisma";
import type { Engine } from "../engine/client";
import { can } from "../access/roles";
import { writeTransaction } from "../db/transactions";
import { appendAudit, appendAuditInTransaction } from "../audit/write";
import { AppError } from "../errors";
import { launchSavedRun } from "../runs/launch-saved";
import { readScheduledRunId } from "../run-ledger/read";
import { escapeSlackText } from "../text/slack";
import { describeSpec, type ScheduleOutcome } from "./schemas";

export interface FireDeps {
  db: Db;
  engine: Pick<Engine, "startRun">;
}

export type FireResult = { kind: "started"; runId: string } | { kind: "refused"; reason: string; record: OutcomeRecord } | { kind: "skipped"; reason: "deleted" | "paused" };

/** The run id of a firing: the entry agent and a digest of the firing's workflow id, so a retried activity finds its run. */
export function firingRunId(entryAgent: string, firingId: string): string {
  return `${entryAgent}-sched-${createHash("sha256").update(firingId).digest("hex").slice(0, 32)}`;
}

/** Why the owner may not start this schedule's runs now, or null. */
async function ownerProblem(db: Db, ownerId: string): Promise<{ problem: string } | { owner: { id: string; email: string } }> {
  const owner = await db.user.findUnique({ where: { id: ownerId }, select: { id: true, email: true, role: true, disabledAt: true } });
  if (!owner) return { problem: "the schedule's owner no longer exists" };
  if (owner.disabledAt) return { problem: `the schedule's owner ${owner.email} is disabled` };
  if (!can(owner.role, "runs:launch")) return { problem: `the schedule's owner ${owner.email} is a ${owner.role} and may no longer start runs` };
  return { owner: { id: owner.id, email: owner.email } };
}

function parseContext(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const messageOf = (error: unknown) => (error instanceof AppError ? error.userMessage : error instanceof Error ? error.message : String(error)).slice(0, 500);

/** Starts the firing's run, or records why it starts none. `firingId` is the workflow id Temporal gave this firing. */
export async function fireSchedule(deps: FireDeps, { scheduleId, firingId }: { scheduleId: string; firingId: string }): Promise<FireResult> {
  const row = await deps.db.schedule.findUnique({ where: { id: scheduleId } });
  if (!row) return { kind: "skipped", reason: "deleted" };
  if (row.paused) return { kind: "skipped", reason: "paused" };
  const owner = await ownerProblem(deps.db, row.ownerId);
  let runId: string | null = null;
  let refusal = "problem" in owner ? owner.problem : null;
  if ("owner" in owner) {
    try {
      const launch = { graph: row.graphName, ...(row.version ? { version: row.version } : {}), task: row.task, context: parseContext(row.context) };
      // A retried activity whose first attempt started the run: the same run, not a second one.
      const earlier = await readScheduledRunId(deps.db, scheduleId, firingRunId("", firingId));
      runId = earlier ?? (await launchSavedRun(deps, launch, owner.owner, { scheduleId, runIdFor: (entry) => firingRunId(entry, firingId) })).runId;
    } catch (error) {
      refusal = `the run could not start: ${messageOf(error)}`;
    }
  }
  if (runId) {
    await deps.db.schedule.updateMany({ where: { id: scheduleId }, data: { lastFiredAt: new Date(), lastRunId: runId, lastOutcome: "started", lastError: null } });
    await appendAudit(deps.db, { id: `schedule-fired-${firingId}`.slice(0, 190), actorId: null, action: "schedule.fired", target: scheduleId, details: { name: row.name, runId, ownerId: row.ownerId } });
    return { kind: "started", runId };
  }
  const reason = refusal ?? "the run could not start";
  const auditId = `schedule-refused-${firingId}`.slice(0, 190);
  // A retried activity counts the refusal once: its audit row, named by the firing, says it was counted.
  const counted = await deps.db.auditEvent.findUnique({ where: { id: auditId }, select: { id: true } });
  await appendAudit(deps.db, { id: auditId, actorId: null, action: "schedule.fire_refused", target: scheduleId, details: { name: row.name, reason, ownerId: row.ownerId } });
  const record = counted ? await currentRecord(deps.db, scheduleId, null) : await recordOutcome(deps.db, { scheduleId, runId: null, outcome: "refused", error: reason });
  return { kind: "refused", reason, record };
}

/** What recording an outcome did: whether the schedule paused itself now (its alert is then owed). */
export interface OutcomeRecord {
  pausedNow: boolean;
  alert: ScheduleAlert | null;
}

/** The webhook body of a schedule that paused itself (sent like a monitor's alert, signed). */
export interface ScheduleAlert {
  event: "schedule.paused";
  schedule: { id: string; name: string; graph: string; spec: string; failureLimit: number; lastRunId: string | null; lastError: string | null };
  text: string;
}

function alertOf(row: { id: string; name: string; graphName: string; cron: string | null; intervalSeconds: number | null; timeZone: string; failureLimit: number; lastError: string | null; pauseNote: string | null }, runId: string | null): ScheduleAlert {
  const spec = describeSpec(row);
  return {
    event: "schedule.paused",
    schedule: { id: row.id, name: row.name, graph: row.graphName, spec, failureLimit: row.failureLimit, lastRunId: runId, lastError: row.lastError },
    text: escapeSlackText(`Schedule paused: ${row.name} (${row.graphName}, ${spec}) ${row.pauseNote ?? ""}`.trim()),
  };
}

/** A retried recording: the schedule as the first one left it (paused: its sync and alert are owed again, both idempotent). */
async function currentRecord(db: Db, scheduleId: string, runId: string | null): Promise<OutcomeRecord> {
  const row = await db.schedule.findUnique({ where: { id: scheduleId } });
  return row?.paused ? { pausedNow: true, alert: alertOf(row, runId) } : { pausedNow: false, alert: null };
}

/** Records how a firing ended; at the failure limit the schedule pauses (audited) and the alert is answered. */
export async function recordOutcome(db: Db, { scheduleId, runId, outcome, error }: { scheduleId: string; runId: string | null; outcome: Exclude<ScheduleOutcome, "started">; error?: string }): Promise<OutcomeRecord> {
  return writeTransaction(db, async (tx) => {
    const row = await tx.schedule.findUnique({ where: { id: scheduleId } });
    if (!row) return { pausedNow: false, alert: null };
    // Recorded already (a retried activity): counted once.
    if (runId && row.lastRunId === runId && row.lastOutcome !== "started") return row.paused ? { pausedNow: true, alert: alertOf(row, runId) } : { pausedNow: false, alert: null };
    const failed = outcome === "failed" || outcome === "refused";
    // A cancelled run (cancel_other, a person) neither fails nor succeeds.
    const failures = outcome === "completed" ? 0 : failed ? row.consecutiveFailures + 1 : row.consecutiveFailures;
    const pauseNow = failed && !row.paused && failures >= row.failureLimit;
    const pauseNote = `paused after ${failures} failed firings in a row${runId ? ` (last run ${runId})` : ""}`;
    const updated = await tx.schedule.update({
      where: { id: scheduleId },
      data: {
        consecutiveFailures: failures,
        lastOutcome: outcome,
        lastError: failed ? (error ?? "the run failed") : null,
        ...(runId ? { lastRunId: runId } : { lastFiredAt: new Date() }),
        ...(pauseNow ? { paused: true, pauseNote } : {}),
      },
    });
    if (!pauseNow) return { pausedNow: false, alert: null };
    await appendAuditInTransaction(tx, { actorId: null, action: "schedule.paused_after_failures", target: scheduleId, details: { name: row.name, failures, lastRunId: runId, error: error ?? null } });
    return { pausedNow: true, alert: alertOf(updated, runId) };
  });
}
