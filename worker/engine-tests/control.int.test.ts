// Follow-ups, cancel, budgets and typed failures.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { AgentNotFound, InvalidConfig } from "../../lib/agents/errors";
import { RunNotFound } from "../../lib/engine/errors";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness();
});
afterAll(async () => h?.stop());

describe("follow-ups", () => {
  it("continues a completed run that is still open, and one that has closed", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({}, { followUpWindowSeconds: 2 }), task: "first question" });
    expect((await waitForStatus(h.engine, runId, ["completed"])).output).toBe("main received: first question");

    await h.engine.sendMessage(runId, "second question");
    await eventually(() => h.engine.getRun(runId), (s) => s.output === "main received: second question", 15_000, "the second answer");

    // Wait for the follow-up window to close the workflow, then continue it anyway.
    await eventually(() => h.client.workflow.getHandle(runId).describe(), (d) => d.status.name === "COMPLETED", 20_000, "the run to close");
    await h.engine.sendMessage(runId, "third question");
    const third = await eventually(() => h.engine.getRun(runId), (s) => s.output === "main received: third question", 15_000, "the third answer");
    expect(third.generation).toBe(1);
    const history = await h.engine.getHistory(runId);
    expect(history.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["first question", "second question", "third question"]);
    const events = await h.engine.getEvents(runId);
    expect(events.filter((e) => e.type === "user_message").length).toBe(2);
    expect(events.filter((e) => e.type === "run_completed").length).toBe(3);
  });

  it("queues a message sent while the run is working", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({}), task: "think 800\nanswer: slow answer" });
    await h.engine.sendMessage(runId, "and then this");
    await eventually(() => h.engine.getRun(runId), (s) => s.output === "main received: and then this", 15_000, "the queued message's answer");
  });
});

describe("summary during a long model call", () => {
  it("answers from the ledger within the query deadline while the workflow task is held open", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({}), task: "think 6000\nanswer: took its time" });
    // The run row says "thinking" as soon as the model call starts (written by the ledger pump).
    await eventually(() => h.db.run.findUnique({ where: { id: runId }, select: { status: true } }), (r) => r?.status === "thinking", 15_000, "the ledger to say thinking");
    const asked = Date.now();
    const summary = await h.engine.getRun(runId);
    expect(Date.now() - asked, "a query would wait for the open workflow task (up to 8 s)").toBeLessThan(4_000);
    expect(summary).toMatchObject({ runId, status: "thinking", output: null });
    expect((await waitForStatus(h.engine, runId, ["completed"])).output).toBe("took its time");
  });
});

describe("cancel", () => {
  it("ends a run and its sub-agent conversations as cancelled", async () => {
    const graph = {
      entryAgent: "lead",
      agents: [
        { name: "lead", model: "demo/lead", subAgents: ["slow"] },
        { name: "slow", model: "demo/slow", tools: ["calculator"] },
      ],
      limits: { followUpWindowSeconds: 60, subAgentIdleTimeoutSeconds: 60 },
    };
    const { runId } = await h.engine.startRun({ graph, task: "message slow: think 30000\nanswer: never" });
    const [conversation] = await eventually(() => h.engine.getConversations(runId), (list) => list.length === 1, 15_000, "the conversation to start");
    await h.engine.cancelRun(runId);
    const summary = await waitForStatus(h.engine, runId, ["cancelled"]);
    expect(summary.error).toEqual({ reason: "cancelled", message: "the run was cancelled" });
    const child = await eventually(() => h.client.workflow.getHandle(conversation!.conversationId).describe(), (d) => d.status.name !== "RUNNING", 15_000, "the child to stop");
    expect(child.status.name).toBe("CANCELLED");
    // The run closes right after its last ledger write.
    await eventually(() => h.client.workflow.getHandle(runId).describe(), (d) => d.status.name === "CANCELLED", 20_000, "the run to close as cancelled");
    expect((await h.engine.getEvents(runId)).at(-1)?.type).toBe("run_cancelled");
  });

  it("reports an unknown run", async () => {
    await expect(h.engine.cancelRun("main-does-not-exist")).rejects.toBeInstanceOf(RunNotFound);
    await expect(h.engine.getRun("main-does-not-exist")).rejects.toBeInstanceOf(RunNotFound);
  });
});

describe("budgets and typed failures", () => {
  it("step_limit_exceeded: the iteration cap", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ tools: ["calculator"], maxIterations: 2 }), task: 'repeat 5 tool calculator {"expression":"1+1"}' });
    const summary = await waitForStatus(h.engine, runId, ["failed"]);
    expect(summary.error?.reason).toBe("step_limit_exceeded");
    expect(summary.iteration).toBe(2);
  });

  it("budget_exceeded: tokens, with a warning at 90 %", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ tools: ["calculator"] }, { tokenBudget: 1000 }), task: 'tokens 300\nrepeat 10 tool calculator {"expression":"1"}' });
    const summary = await waitForStatus(h.engine, runId, ["failed"]);
    expect(summary.error?.reason).toBe("budget_exceeded");
    const events = await h.engine.getEvents(runId);
    const warning = events.find((e) => e.type === "budget_warning");
    expect(warning).toMatchObject({ budget: "tokens", limit: 1000 });
    expect(warning?.seq).toBeLessThan(events.find((e) => e.type === "run_failed")?.seq ?? 0);
    // The summary says failed once the ledger holds the failure; the workflow closes right after its last write.
    await eventually(() => h.client.workflow.getHandle(runId).describe(), (d) => d.status.name === "FAILED", 20_000, "the workflow to close as failed");
  });

  it("budget_exceeded: sub-agent depth", async () => {
    const graph = {
      entryAgent: "a",
      agents: [
        { name: "a", subAgents: ["b"] },
        { name: "b", subAgents: ["c"] },
        { name: "c" },
      ],
      limits: { maxDepth: 1, followUpWindowSeconds: 30 },
    };
    const { runId } = await h.engine.startRun({ graph, task: "message b: message c: hello" });
    await waitForStatus(h.engine, runId, ["completed"]);
    const [conversation] = await h.engine.getConversations(runId);
    const child = await waitForStatus(h.engine, conversation!.conversationId, ["failed"]);
    expect(child.error?.reason).toBe("budget_exceeded");
    expect(child.error?.message).toMatch(/depth limit of 1/);
    const history = await h.engine.getHistory(runId);
    expect(JSON.stringify(history)).toContain("failed (budget_exceeded)");
  });

  it("timeout: no answer within the run timeout", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({}, { runTimeoutSeconds: 1 }), task: "think 10000" });
    const summary = await waitForStatus(h.engine, runId, ["failed"], 20_000);
    expect(summary.error?.reason).toBe("timeout");
  });

  it("model_error: the model fails for good", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({}), task: "fail model" });
    const summary = await waitForStatus(h.engine, runId, ["failed"]);
    expect(summary.error).toMatchObject({ reason: "model_error", message: expect.stringContaining("asked to fail") });
  });

  it("invalid_config: a bad graph is refused before anything runs, with paths", async () => {
    const error = await h.engine
      .startRun({ graph: { entryAgent: "main", agents: [{ name: "main", subAgents: ["ghost"] }] }, task: "hi" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidConfig);
    expect((error as InvalidConfig).issues).toEqual([{ path: "agents[0].subAgents[0]", message: 'unknown sub-agent "ghost"' }]);
    await expect(h.engine.startRun({ graphName: "nobody", task: "hi" })).rejects.toBeInstanceOf(AgentNotFound);
  });

  it("runs a saved demo agent by name", async () => {
    const { runId } = await h.engine.startRun({ graphName: "research-loop", task: 'tool search_notes {"query":"temporal"}\nanswer: researched' });
    expect(runId).toMatch(/^researcher-/);
    expect((await waitForStatus(h.engine, runId, ["completed"])).output).toBe("researched");
  });
});
