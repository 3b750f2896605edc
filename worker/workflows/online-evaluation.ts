// Online evaluation on Temporal, off the runs' path (issue 40 §2;
// docs/online-evaluation.md). One long-lived workflow per enabled evaluator
// (`zap-evaluator-<id>`) loops: claim the runs due (an activity inserts one
// `online_evaluations` row per run: the claim, unique per evaluator and run),
// score the pending rows (an activity that writes each outcome once, only
// while the row is pending), sleep on a timer when nothing was due. It ends
// when the evaluator is disabled or deleted, and continues as new after a
// bounded number of passes so its history stays small, moving to the newest
// worker build then. A backfill (`zap-evaluator-backfill-<obf id>`) pages
// through a past range by the cursor stored on its row, the same way.
// A run never waits for any of this: nothing here is called by a run.
import { isCancellation, makeContinueAsNewFunc, proxyActivities, sleep, workflowInfo } from "@temporalio/workflow";
import type { Activities } from "../activities";
import type { BackfillWorkflowInput, EvaluatorWorkflowInput, ScanCursor } from "../../lib/online-eval/temporal";

const { claimDueEvaluations, claimBackfillPage, failBackfill } = proxyActivities<Activities>({
  startToCloseTimeout: "1 minute",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "30 seconds", maximumAttempts: 10 },
});

const { scoreEvaluations } = proxyActivities<Activities>({
  // A judge call may take a minute; a worker that dies stops heartbeating, so its batch is retried within seconds.
  startToCloseTimeout: "15 minutes",
  heartbeatTimeout: "20 seconds",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "30 seconds", maximumAttempts: 10 },
});

/** The wait after a pass that found nothing due. */
export const IDLE_SLEEP_MS = 2_000;
/** Passes per execution before continuing as new (each pass is a handful of history events). */
export const PASSES_PER_EXECUTION = 200;
/** Backfill pages per execution before continuing as new. */
export const PAGES_PER_EXECUTION = 100;

const continueEvaluator = makeContinueAsNewFunc<typeof onlineEvaluatorWorkflow>({ initialVersioningBehavior: "AUTO_UPGRADE" });
const continueBackfill = makeContinueAsNewFunc<typeof onlineEvaluationBackfillWorkflow>({ initialVersioningBehavior: "AUTO_UPGRADE" });

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Scores a batch; a batch that gave up is left pending (the next pass lists it again), never lost. */
async function scoreBatch(ids: string[]): Promise<void> {
  if (!ids.length) return;
  try {
    await scoreEvaluations({ ids });
  } catch (error) {
    if (isCancellation(error)) throw error;
    await sleep(IDLE_SLEEP_MS);
  }
}

export async function onlineEvaluatorWorkflow(input: EvaluatorWorkflowInput): Promise<{ ended: "disabled" | "gone" }> {
  let cursor: ScanCursor | null = input.cursor ?? null;
  for (let pass = 0; pass < PASSES_PER_EXECUTION && !workflowInfo().continueAsNewSuggested; pass++) {
    const due = await claimDueEvaluations({ evaluatorId: input.evaluatorId, cursor });
    if (due.state !== "active") return { ended: due.state };
    cursor = due.cursor;
    await scoreBatch(due.pending);
    if (due.claimed === 0 && !due.more) await sleep(IDLE_SLEEP_MS);
  }
  return continueEvaluator({ evaluatorId: input.evaluatorId, cursor });
}

export async function onlineEvaluationBackfillWorkflow(input: BackfillWorkflowInput): Promise<{ status: "done" | "failed" | "gone" }> {
  for (let page = 0; page < PAGES_PER_EXECUTION && !workflowInfo().continueAsNewSuggested; page++) {
    let claimed;
    try {
      claimed = await claimBackfillPage({ backfillId: input.backfillId });
    } catch (error) {
      if (isCancellation(error)) throw error;
      await failBackfill({ backfillId: input.backfillId, error: messageOf(error) });
      return { status: "failed" };
    }
    if (claimed.state !== "active") return { status: claimed.state };
    await scoreBatch(claimed.pending);
  }
  return continueBackfill(input);
}
