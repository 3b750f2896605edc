// Workflow code must be deterministic: a worker that lost its cache (a crash,
// an eviction, a query for a run it no longer holds) rebuilds a run by
// replaying its history, and any command in a different order fails the run's
// tasks. A run with parallel tool calls, continue-as-new and queries all along
// is replayed here, every execution of it, from the server's history.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Worker } from "@temporalio/worker";
import { singleAgentGraph, sharedWorkflowBundle, startEngineHarness, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { createClaimCheckCodec } from "../../lib/temporal/claim-check-codec";
import { isTerminal } from "../../lib/runs/schemas";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness();
});
afterAll(async () => h?.stop());

const ITERATIONS = 60;

describe("replaying histories", () => {
  it("replays every execution of a long, parallel, queried run without a nondeterminism error", async () => {
    const step = Array.from({ length: 4 }, (_, i) => `tool search_notes {"query":"temporal ${i}"}`).join(" && ");
    const { runId } = await h.engine.startRun({
      graph: singleAgentGraph({ tools: ["search_notes"], maxIterations: 500 }, { continueAsNewAfterEvents: 200, tokenBudget: 100_000_000, followUpWindowSeconds: 0 }),
      task: `${Array.from({ length: ITERATIONS }, () => step).join("\n")}\nanswer: done`,
    });
    // Queries all along, as the run page and the bench ask them.
    let queries = 0;
    const queryErrors: string[] = [];
    for (;;) {
      const summary = await h.engine.getRun(runId).catch((error: unknown) => {
        queryErrors.push(String(error));
        return { status: "running" };
      });
      queries++;
      if (isTerminal(summary.status)) {
        expect(summary.status).toBe("completed");
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(queries).toBeGreaterThan(3);
    expect(queryErrors, "queries answered by replaying the run's history").toEqual([]);
    // Closed (the follow-up window is 0 s): an open history ends in a task the replayer would run anew.
    await h.client.workflow.getHandle(runId).result();

    const executions: string[] = [];
    for await (const execution of h.client.workflow.list({ query: `WorkflowId = '${runId}'` })) executions.push(execution.runId);
    expect(executions.length, "the run continued as new").toBeGreaterThan(1);
    const dataConverter = { payloadCodecs: [createClaimCheckCodec({ db: h.db, thresholdBytes: h.config.temporal.payloadOffloadBytes })] };
    for (const execution of executions) {
      const history = await h.client.workflow.getHandle(runId, execution).fetchHistory();
      await expect(Worker.runReplayHistory({ workflowBundle: sharedWorkflowBundle(), dataConverter }, history, runId), `execution ${execution}`).resolves.toBeUndefined();
    }
  });
});
