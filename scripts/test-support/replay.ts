// Replays recorded runs on today's workflow code, as a worker that lost its
// cache would: every closed execution of each run and of its child runs
// (sub-agents, routed agents, plan nodes). A nondeterminism error rejects.
import { Worker } from "@temporalio/worker";
import type { temporal } from "@temporalio/proto";
import type { WorkflowExecutionInfo } from "@temporalio/client";
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
  const executions: WorkflowExecutionInfo[] = [];
  for (const runId of runIds) {
    for await (const execution of h.client.workflow.list({ query: `WorkflowId = '${runId}' OR ParentWorkflowId = '${runId}'` })) executions.push(execution);
  }
  // The trees close (or stay open) side by side: one wait for all, not one CLOSING_MS wait after another.
  const open = await Promise.all(executions.map(async (e) => e.status.name === "RUNNING" && !(await closed(h, e.workflowId, e.runId))));
  const toReplay = executions.filter((_, i) => !open[i]);
  const inputs = await Promise.all(toReplay.map(async (e) => ({ workflowId: e.workflowId, runId: e.runId, history: await h.client.workflow.getHandle(e.workflowId, e.runId).fetchHistory() })));
  await replayHistories(h, inputs);
  return inputs.length;
}

type History = temporal.api.history.v1.IHistory;

export interface RecordedExecution {
  workflowId: string;
  runId?: string;
  history: History;
}

/**
 * Replays histories on today's workflow bundle with one replay worker for them all (a worker per history loads the
 * bundle into a new context each time); rejects on the first that does not replay, naming it.
 */
export async function replayHistories(h: EngineHarness, executions: readonly RecordedExecution[]): Promise<void> {
  const dataConverter = { payloadCodecs: [createClaimCheckCodec({ db: h.db, thresholdBytes: h.config.temporal.payloadOffloadBytes })] };
  let answered = 0;
  // It answers in order, one result per history.
  for await (const result of Worker.runReplayHistories({ workflowBundle: sharedWorkflowBundle(), dataConverter }, executions)) {
    const e = executions[answered] as RecordedExecution;
    if (result.error) throw new Error(`${e.workflowId} / ${e.runId ?? result.runId} did not replay: ${result.error.message}`);
    answered++;
  }
  if (answered !== executions.length) throw new Error(`the replayer answered for ${answered} of ${executions.length} executions`);
}
