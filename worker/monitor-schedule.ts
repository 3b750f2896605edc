// Exactly one monitor evaluator however many workers run: a Temporal Schedule
// per task queue (id zap-monitors-<queue>) starts monitorsTickWorkflow every
// ZAP_MONITOR_INTERVAL_SECONDS, skipping a tick while the previous one still
// runs. Every worker upserts it at boot (create, or update to this worker's
// interval), so there is no leader to elect and no lease to expire: the
// schedule lives in Temporal, which starts one tick at a time on whichever
// worker polls. Alerts stay correct even if two ticks ever overlapped: the open
// alert per monitor is unique in the database (lib/monitors/evaluate.ts).
import { Client, ScheduleAlreadyRunning, ScheduleOverlapPolicy, type ScheduleOptionsAction } from "@temporalio/client";
import type { NativeConnection } from "@temporalio/worker";
import type { AppConfig } from "../lib/config/env";

export const monitorScheduleId = (taskQueue: string) => `zap-monitors-${taskQueue}`;

/** Creates the schedule, or brings an existing one to this interval and task queue; answers which. */
export async function ensureMonitorSchedule(client: Client, options: { taskQueue: string; intervalSeconds: number }): Promise<"created" | "updated"> {
  const scheduleId = monitorScheduleId(options.taskQueue);
  const spec = { intervals: [{ every: `${options.intervalSeconds}s` }] };
  const action: ScheduleOptionsAction = {
    type: "startWorkflow",
    workflowType: "monitorsTickWorkflow",
    workflowId: `${scheduleId}-tick`,
    taskQueue: options.taskQueue,
    args: [],
    // A tick that cannot finish (no worker, a stuck database) gives way to the next one.
    workflowRunTimeout: `${Math.max(60, options.intervalSeconds * 5)}s`,
  };
  // Missed ticks while Temporal was down are not worth catching up: the next tick reads the window as it is.
  const policies = { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: "1 minute" };
  try {
    await client.schedule.create({ scheduleId, spec, action, policies, memo: { purpose: "Zap Studio monitor evaluation (docs/observe.md)" } });
    return "created";
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
  await client.schedule.getHandle(scheduleId).update((previous) => ({ ...previous, spec, action, policies: { ...previous.policies, ...policies } }));
  return "updated";
}

/**
 * The worker's boot step: upserts the schedule and says so. A failure (a
 * namespace that refuses schedules, a permission) is logged, not fatal: runs
 * go on, and the next worker to start tries again.
 */
export async function startMonitorSchedule(connection: NativeConnection, config: AppConfig): Promise<void> {
  const { taskQueue, namespace } = config.temporal;
  try {
    const client = new Client({ connection, namespace });
    const outcome = await ensureMonitorSchedule(client, { taskQueue, intervalSeconds: config.monitors.intervalSeconds });
    console.log(`worker: monitors evaluated every ${config.monitors.intervalSeconds} s (schedule ${monitorScheduleId(taskQueue)} ${outcome})`);
  } catch (error) {
    console.error(`worker: the monitor schedule could not be set up, so monitors are not evaluated: ${error instanceof Error ? error.message : String(error)}`);
  }
}
