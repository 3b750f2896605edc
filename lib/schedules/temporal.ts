// A schedule's Temporal side: the Temporal Schedule `zap-schedule-<id>` built
// from the database row, which is the source of truth. `syncTemporalSchedule`
// makes Temporal match the row (created, updated, paused or resumed; deleted
// when the row is gone) and can be called any number of times: every change
// calls it after its write, the worker calls it for every row at boot, so a
// change whose Temporal call failed is brought in line by the next one.
// Each firing starts scheduledRunWorkflow (worker/workflows/scheduled-run.ts),
// which checks the row again before starting anything.
import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, type Client, type ScheduleOptionsAction, type ScheduleSpec } from "@temporalio/client";
import type { OverlapPolicy } from "./schemas";

export const SCHEDULED_RUN_WORKFLOW = "scheduledRunWorkflow";

/** The Temporal Schedule of a schedule row. */
export const temporalScheduleId = (id: string) => `zap-schedule-${id}`;

/** What scheduledRunWorkflow is started with. */
export interface ScheduledRunInput {
  scheduleId: string;
}

export const OVERLAP_TO_TEMPORAL: Record<OverlapPolicy, ScheduleOverlapPolicy> = {
  skip: ScheduleOverlapPolicy.SKIP,
  buffer_one: ScheduleOverlapPolicy.BUFFER_ONE,
  allow_all: ScheduleOverlapPolicy.ALLOW_ALL,
  cancel_other: ScheduleOverlapPolicy.CANCEL_OTHER,
};

/** The row's fields the Temporal Schedule is built from. */
export interface ScheduleSpecRow {
  id: string;
  cron: string | null;
  intervalSeconds: number | null;
  timeZone: string;
  jitterSeconds: number;
  overlap: string;
  paused: boolean;
  pauseNote: string | null;
}

function specOf(row: ScheduleSpecRow): ScheduleSpec {
  return {
    ...(row.cron ? { cronExpressions: [row.cron] } : { intervals: [{ every: `${row.intervalSeconds ?? 60}s` }] }),
    timezone: row.timeZone,
    ...(row.jitterSeconds > 0 ? { jitter: `${row.jitterSeconds}s` } : {}),
  };
}

function actionOf(row: ScheduleSpecRow, taskQueue: string): ScheduleOptionsAction {
  const input: ScheduledRunInput = { scheduleId: row.id };
  // Temporal appends each firing's time to this id, so two firings never share a workflow id.
  return { type: "startWorkflow", workflowType: SCHEDULED_RUN_WORKFLOW, workflowId: `${temporalScheduleId(row.id)}-run`, taskQueue, args: [input] };
}

function policiesOf(row: ScheduleSpecRow) {
  const overlap = OVERLAP_TO_TEMPORAL[row.overlap as OverlapPolicy] ?? ScheduleOverlapPolicy.SKIP;
  // Firings missed while Temporal was down are caught up for 5 minutes only, not Temporal's default of a year.
  return { overlap, catchupWindow: "5 minutes" };
}

const noteOf = (row: ScheduleSpecRow) => (row.paused ? (row.pauseNote ?? "paused in Zap Studio") : "active in Zap Studio");

/** Makes the Temporal Schedule match the row (null: the row is gone, so the schedule is deleted); idempotent. */
export async function syncTemporalSchedule(client: Client, taskQueue: string, id: string, row: ScheduleSpecRow | null): Promise<"created" | "updated" | "deleted" | "absent"> {
  const handle = client.schedule.getHandle(temporalScheduleId(id));
  if (!row) {
    try {
      await handle.delete();
      return "deleted";
    } catch (error) {
      if (error instanceof ScheduleNotFoundError) return "absent";
      throw error;
    }
  }
  const spec = specOf(row);
  const action = actionOf(row, taskQueue);
  const policies = policiesOf(row);
  const state = { paused: row.paused, note: noteOf(row) };
  try {
    await client.schedule.create({ scheduleId: temporalScheduleId(id), spec, action, policies, state, memo: { purpose: "Zap Studio schedule (docs/schedules.md)" } });
    return "created";
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
  await handle.update(() => ({ spec, action, policies, state }));
  return "updated";
}

/** The next firing times Temporal plans (empty when paused, absent or unreachable: the list never waits on it). */
export async function nextFireTimes(client: Client, id: string, count = 3): Promise<string[]> {
  try {
    const described = await client.schedule.getHandle(temporalScheduleId(id)).describe();
    if (described.state.paused) return [];
    return described.info.nextActionTimes.slice(0, count).map((time) => time.toISOString());
  } catch {
    return [];
  }
}

/** Whether Temporal holds the schedule (tests and the sync check). */
export async function temporalScheduleExists(client: Client, id: string): Promise<boolean> {
  try {
    await client.schedule.getHandle(temporalScheduleId(id)).describe();
    return true;
  } catch (error) {
    if (error instanceof ScheduleNotFoundError) return false;
    throw error;
  }
}
