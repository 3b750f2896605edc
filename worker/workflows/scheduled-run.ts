// One firing of a schedule, started by its Temporal Schedule (lib/schedules/temporal.ts).
// The workflow lives as long as its run, so Temporal's overlap policy means
// what it says: skip and buffer_one wait for the run to end, cancel_other
// cancels this workflow and with it the run. Everything that reads the
// database or starts a run is an activity; this code only orders them.
import { ActivityCancellationType, CancellationScope, isCancellation, proxyActivities, workflowInfo } from "@temporalio/workflow";
import type { Activities } from "../activities";
import type { ScheduledRunInput } from "../../lib/schedules/temporal";

const { fireScheduledRun, recordScheduledOutcome } = proxyActivities<Activities>({
  startToCloseTimeout: "1 minute",
  retry: { maximumAttempts: 10, initialInterval: "1 second", maximumInterval: "20 seconds" },
});

// A run may wait hours for an approval: a long start-to-close, a short heartbeat (a killed worker's wait is retried elsewhere).
const { awaitScheduledRun } = proxyActivities<Activities>({
  startToCloseTimeout: "7 days",
  heartbeatTimeout: "15 seconds",
  retry: { maximumAttempts: 20, initialInterval: "1 second", maximumInterval: "30 seconds" },
  // The activity cancels the run before the workflow ends, so cancel_other leaves no run going.
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
});

export type ScheduledRunResult = { kind: "skipped"; reason: string } | { kind: "refused"; reason: string } | { kind: "ended"; runId: string; outcome: "completed" | "failed" | "cancelled" };

export async function scheduledRunWorkflow({ scheduleId }: ScheduledRunInput): Promise<ScheduledRunResult> {
  // Temporal gives each firing its own workflow id (the schedule's and the firing time): the run id derives from it.
  const fired = await fireScheduledRun({ scheduleId, firingId: workflowInfo().workflowId });
  if (fired.kind !== "started") return fired;
  const { runId } = fired;
  try {
    const outcome = await awaitScheduledRun({ runId });
    await recordScheduledOutcome({ scheduleId, runId, outcome });
    return { kind: "ended", runId, outcome };
  } catch (error) {
    if (!isCancellation(error)) throw error;
    await CancellationScope.nonCancellable(() => recordScheduledOutcome({ scheduleId, runId, outcome: "cancelled" }));
    throw error;
  }
}
