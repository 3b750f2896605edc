// Replays recorded runs on today's workflow code, as a worker that lost its
// cache would: every closed execution of each run and of its child runs
// (sub-agents, routed agents, plan nodes). A nondeterminism error rejects.
import { Worker } from "@temporalio/worker";
import { createClaimCheckCodec } from "../../lib/temporal/claim-check-codec";
import { sharedWorkflowBundle, type EngineHarness } from "./engine-harness";

/** Replays the closed executions of `runIds` and their children; answers how many it replayed. */
export async function replayRunTrees(h: EngineHarness, runIds: readonly string[]): Promise<number> {
  const dataConverter = { payloadCodecs: [createClaimCheckCodec({ db: h.db, thresholdBytes: h.config.temporal.payloadOffloadBytes })] };
  let replayed = 0;
  for (const runId of runIds) {
    for await (const execution of h.client.workflow.list({ query: `WorkflowId = '${runId}' OR ParentWorkflowId = '${runId}'` })) {
      if (execution.status.name === "RUNNING") continue;
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
