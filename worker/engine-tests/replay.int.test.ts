// Workflow code must be deterministic: a worker that lost its cache (a crash,
// an eviction, a query for a run it no longer holds) rebuilds a run by
// replaying its history, and any command in a different order fails the run's
// tasks. Runs with parallel tool calls, continue-as-new, sub-agents, an
// approval and queries all along are replayed here, every execution of every
// workflow involved, from the server's history.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Worker } from "@temporalio/worker";
import { temporal } from "@temporalio/proto";
import { singleAgentGraph, sharedWorkflowBundle, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { replayHistories, type RecordedExecution } from "../../scripts/test-support/replay";
import { isTerminal } from "../../lib/runs/schemas";
import { summaryQuery } from "../../lib/contract/definitions";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness();
});
afterAll(async () => h?.stop());

/** Queries the run's summary every 100 ms until it ends; returns the query errors. */
async function queryUntilDone(runId: string, onEach?: (status: string) => Promise<void>): Promise<string[]> {
  const errors: string[] = [];
  let queries = 0;
  for (;;) {
    // The workflow's own summary query (the web server reads the ledger now): a query is what closes a workflow task early.
    const summary = await h.client.workflow.getHandle(runId).query(summaryQuery).catch((error: unknown) => {
      errors.push(String(error));
      return { status: "running" };
    });
    queries++;
    await onEach?.(summary.status);
    if (isTerminal(summary.status)) {
      expect(summary.status).toBe("completed");
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // At least one query met the run while it worked (how many depends on the machine's speed: a fast run ends in three).
  expect(queries).toBeGreaterThanOrEqual(2);
  return errors;
}

/** Replays every execution of each workflow once it has closed (an open history ends in a task the replayer would run anew). */
async function replayAll(workflowIds: string[]): Promise<number> {
  const executions: RecordedExecution[] = [];
  for (const workflowId of workflowIds) {
    await h.client.workflow.getHandle(workflowId).result();
    for await (const execution of h.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
      executions.push({ workflowId, runId: execution.runId, history: await h.client.workflow.getHandle(workflowId, execution.runId).fetchHistory() });
    }
  }
  // One replay worker for them all; it rejects naming the first execution that does not replay.
  await replayHistories(h, executions);
  return executions.length;
}

describe("replaying histories", () => {
  it("replays every execution of a long run with parallel tool calls, queried all along", async () => {
    const step = Array.from({ length: 4 }, (_, i) => `tool search_notes {"query":"temporal ${i}"}`).join(" && ");
    const { runId } = await h.engine.startRun({
      graph: singleAgentGraph({ tools: ["search_notes"], maxIterations: 500 }, { continueAsNewAfterEvents: 200, tokenBudget: 100_000_000, followUpWindowSeconds: 0 }),
      // 61 inferences of at least 20 ms each: the run lasts over a second however fast the machine, so the
      // queries every 100 ms below really do land while it works (without it, a quick run ended after 3).
      task: `think 20\n${Array.from({ length: 60 }, () => step).join("\n")}\nanswer: done`,
    });
    expect(await queryUntilDone(runId), "queries answered by replaying the run's history").toEqual([]);
    expect(await replayAll([runId]), "the run continued as new").toBeGreaterThan(1);
  });

  it("replays a run that messages a sub-agent and waits for an approval while built-in tools run beside them", async () => {
    const approver = await h.db.user.findUniqueOrThrow({ where: { email: "approver@zap.local" } });
    const graph = {
      entryAgent: "lead",
      agents: [
        {
          name: "lead",
          model: "demo/lead",
          tools: ["ledger_transfer", "calculator", "search_notes"],
          subAgents: ["helper"],
          approvalRules: [{ pattern: "ledger_transfer", requiredRole: "approver" as const, expiresInSeconds: 600 }],
        },
        { name: "helper", model: "demo/helper", description: "does sums", tools: ["calculator"] },
      ],
      limits: { followUpWindowSeconds: 0, subAgentIdleTimeoutSeconds: 1 },
    };
    const parallel = 'tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":3,"memo":"replay"} && tool calculator {"expression":"6*7"} && message helper: What is 1+1? && tool search_notes {"query":"replay"}';
    const { runId } = await h.engine.startRun({ graph, task: `${parallel}\n${parallel.replace("replay", "again")}\nanswer: done` });
    const decided = new Set<string>();
    const errors = await queryUntilDone(runId, async (status) => {
      if (status !== "awaiting_approval") return;
      for (const approval of await h.engine.getPendingApprovals(runId)) {
        if (decided.has(approval.id)) continue;
        decided.add(approval.id);
        await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, reason: "replay test", decidedBy: { id: approver.id, email: approver.email, role: approver.role } });
      }
    });
    expect(errors).toEqual([]);
    expect(decided.size, "two approvals decided").toBe(2);
    const done = await waitForStatus(h.engine, runId, ["completed"]);
    expect(done.output).toBe("done");
    const subRuns = await h.db.run.findMany({ where: { parentRunId: runId }, select: { id: true } });
    expect(subRuns.length).toBeGreaterThan(0);
    expect(await replayAll([runId, ...subRuns.map((r) => r.id)])).toBeGreaterThanOrEqual(2);
  });

  it("replays runs recorded by a worker from before model calls carried the ledger (a worker upgraded mid-run)", async () => {
    // Recorded from the engine as of commit c1f4a74 (a lead with parallel built-in calls, an approval and a
    // sub-agent, and the sub-agent's run): that worker wrote the ledger ahead of each model call and ran
    // every tool call as its own activity. The patch "ledger-carried-by-model-calls" keeps that schedule.
    const recorded = JSON.parse(readFileSync(path.join(import.meta.dirname, "fixtures", "pre-carried-ledger.histories.json"), "utf8")) as { workflowId: string; history: string }[];
    expect(recorded.length).toBeGreaterThanOrEqual(2);
    for (const { workflowId, history } of recorded) {
      const decoded = temporal.api.history.v1.History.decode(Buffer.from(history, "base64"));
      await expect(Worker.runReplayHistory({ workflowBundle: sharedWorkflowBundle() }, decoded, workflowId), workflowId).resolves.toBeUndefined();
    }
  });
});

