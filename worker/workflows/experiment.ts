// The experiment: every unit (a dataset item on one target) run, waited for and
// scored by one activity, at most `concurrency` at a time. The workflow holds
// ids and counters only — the items stay in the database — and continues as new
// every UNITS_PER_EXECUTION units, so a 100,000-item experiment keeps a small
// history. Cancelling the workflow cancels the in-flight units (each activity
// cancels its item run) and marks the experiment cancelled.
import { ActivityCancellationType, CancellationScope, continueAsNew, isCancellation, proxyActivities } from "@temporalio/workflow";
import type { Activities } from "../activities";
import type { ExperimentWorkflowInput, ExperimentWorkflowResult } from "../../lib/experiments/workflow-contract";

/** Units one workflow execution walks through before it continues as new (keeps its history small). */
const UNITS_PER_EXECUTION = 400;

// A unit waits for a whole agent run: a long start-to-close, but a short
// heartbeat, so a unit on a killed worker is retried elsewhere within seconds
// (the retry finds the run it started by its workflow id and scores it once).
const { runExperimentUnit } = proxyActivities<Activities>({
  startToCloseTimeout: "2 hours",
  heartbeatTimeout: "10 seconds",
  retry: { maximumAttempts: 5, initialInterval: "1 second", maximumInterval: "30 seconds", nonRetryableErrorTypes: ["ExperimentUnitRefused"] },
  // The unit cancels its item run before the workflow moves on, so a cancelled experiment leaves no run going.
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
});

const { failExperimentUnit, finishExperiment } = proxyActivities<Activities>({
  startToCloseTimeout: "1 minute",
  retry: { maximumAttempts: 10, initialInterval: "1 second", maximumInterval: "20 seconds" },
});

/** Runs one unit; never rejects, so the other units in flight are never left with an unobserved failure. */
async function runUnit(experimentId: string, seq: number): Promise<number> {
  try {
    await runExperimentUnit({ experimentId, seq });
  } catch (error) {
    if (!isCancellation(error)) {
      const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
      // A unit whose activity gave up is recorded as failed; the experiment goes on.
      await CancellationScope.nonCancellable(() => failExperimentUnit({ experimentId, seq, reason })).catch(() => undefined);
    }
  }
  return seq;
}

export async function experimentWorkflow(input: ExperimentWorkflowInput): Promise<ExperimentWorkflowResult> {
  const end = Math.min(input.total, input.next + (input.unitsPerExecution ?? UNITS_PER_EXECUTION));
  const inFlight = new Map<number, Promise<number>>();
  let next = input.next;
  let finished = 0;
  const cancelled = () => CancellationScope.current().consideredCancelled;
  while ((next < end && !cancelled()) || inFlight.size > 0) {
    while (next < end && inFlight.size < input.concurrency && !cancelled()) {
      const seq = next++;
      inFlight.set(seq, runUnit(input.experimentId, seq));
    }
    if (inFlight.size === 0) break;
    inFlight.delete(await Promise.race(inFlight.values()));
    finished++;
  }
  if (cancelled()) {
    await CancellationScope.nonCancellable(() => finishExperiment({ experimentId: input.experimentId, status: "cancelled" }));
    return { status: "cancelled", finished };
  }
  if (end < input.total) return continueAsNew<typeof experimentWorkflow>({ ...input, next: end });
  await finishExperiment({ experimentId: input.experimentId, status: "completed" });
  return { status: "completed", finished };
}
