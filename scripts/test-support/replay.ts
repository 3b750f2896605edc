// Replays recorded runs on today's workflow code, as a worker that lost its
// cache would: every closed execution of each run and of its child runs
// (sub-agents, routed agents, plan nodes). A nondeterminism error rejects.
import { Worker } from "@temporalio/worker";
import { createClaimCheckCodec } from "../../lib/temporal/claim-check-codec";
import { sharedWorkflowBundle, type EngineHarness } from "./engine-harness";

/** How long an execution the list shows running may take to close: a run that reported its end still writes its last ledger batch. */
const CLOSING_MS = 15_000;

/** Whether the execution is closed, waiting up to CLOSING_MS for one that is closing (visibility may also lag behind). */
async function closed(h: EngineHarness, workflowId: string, runId: string): Promise<boolean> {
  const handle = h.client.workflow.getHandle(workflowId, runId);
  const until = Date.now() + CLOSING_MS;
  for (;;) {
    if ((await handle.describe()).status.name !== "RUNNING") return true;
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Replays the closed executions of `runIds` and their children (open ones that stay open are left out); answers how many it replayed. */
export async function replayRunTrees(h: EngineHarness, runIds: readonly string[]): Promise<number> {
  const dataConverter = { payloadCodecs: [createClaimCheckCodec({ db: h.db, thresholdBytes: h.config.temporal.payloadOffloadBytes })] };
  let replayed = 0;
  for (const runId of runIds) {
    for await (const execution of h.client.workflow.list({ query: `WorkflowId = '${runId}' OR ParentWorkflowId = '${runId}'` })) {
      if (execution.status.name === "RUNNING" && !(await closed(h, execution.workflowId, execution.runId))) continue;
      const history = await h.client.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory();
      try {
        await Worker.runReplayHistory({ workflowBundle: sharedWorkflowBundle(), dataConverter }, history, execution.workflowId);
      } catch (error) {
        throw new Error(`${execution.workflowId} / ${execution.runId} did not replay: ${error instanceof Error ? error.message : String(error)}`);
      }
      replayed++;
    }
  }
  return replayed;
}
