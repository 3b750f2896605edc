// The Temporal side of online evaluation: one long-lived workflow per enabled
// evaluator (`zap-evaluator-<id>`) and one per backfill
// (`zap-evaluator-backfill-<obf id>`). Starting is idempotent (the id conflict
// policy USE_EXISTING answers the running one), so the web server starts it on
// create and enable, and every worker ensures it at boot for each enabled
// evaluator: a start lost to a Temporal outage is made up by the next worker.
// No `server-only`: the worker's boot step calls it too.
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy, type Client } from "@temporalio/client";

export const ONLINE_EVALUATOR_WORKFLOW = "onlineEvaluatorWorkflow";
export const ONLINE_BACKFILL_WORKFLOW = "onlineEvaluationBackfillWorkflow";

export const evaluatorWorkflowId = (evaluatorId: string) => `zap-evaluator-${evaluatorId}`;
export const backfillWorkflowId = (backfillId: string) => `zap-evaluator-backfill-${backfillId}`;

/**
 * Where a live scan stands: the last run (end, id) all of whose predecessors are decided or `waiting`: runs passed
 * while still undecided (a conversation still open, facets not written yet), looked at again each pass. Without the
 * list, one conversation left open for days held the position, and the runs claimed after it crowded the scan.
 */
export interface ScanCursor {
  endedAt: string;
  runId: string;
  /** Undecided runs at or before the position (at most WAITING_MAX); absent in cursors written before it existed. */
  waiting?: string[];
}

/** What onlineEvaluatorWorkflow is started (and continued as new) with. */
export interface EvaluatorWorkflowInput {
  evaluatorId: string;
  cursor?: ScanCursor | null;
}

export interface BackfillWorkflowInput {
  backfillId: string;
}

/** Starts the evaluator's workflow, or leaves the running one be. */
export async function ensureEvaluatorWorkflow(client: Client, taskQueue: string, evaluatorId: string): Promise<void> {
  const input: EvaluatorWorkflowInput = { evaluatorId, cursor: null };
  await client.workflow.start(ONLINE_EVALUATOR_WORKFLOW, {
    workflowId: evaluatorWorkflowId(evaluatorId),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    // An evaluator disabled and enabled again starts a new execution under the same id.
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
  });
}

/** Starts a backfill's workflow (once: its id is the backfill's). */
export async function startBackfillWorkflow(client: Client, taskQueue: string, backfillId: string): Promise<void> {
  const input: BackfillWorkflowInput = { backfillId };
  await client.workflow.start(ONLINE_BACKFILL_WORKFLOW, {
    workflowId: backfillWorkflowId(backfillId),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
  });
}
