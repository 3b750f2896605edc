// Plans and routes at the edges a team meets in its first week (issue 22 §1),
// on the real Temporal dev server: a follow-up's plan gets child runs of its
// own, a router never gives the task back to a child that failed, a stopped
// plan records every node's end, children spend from the run tree's one
// budget, only failures that may pass are retried (and a retried node's side
// effects happen once), and the synthesis agent answers or fails the run.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { replayRunTrees } from "../../scripts/test-support/replay";
import { waitScale } from "../../scripts/test-support/wait-scale";
import type { RunEvent, TraceNode } from "../../lib/contract/types";
import tripPlanner from "../../lib/agents/demo/trip-planner.json";
import helpDeskGraph from "../../lib/agents/demo/help-desk.json";
import { agentGraphSchema } from "../../lib/agents/schemas";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness({ policy: { exemptTools: ["ledger_transfer"] } });
});
afterAll(async () => h?.stop());

const replayable: string[] = [];
const ofType = <T extends RunEvent["type"]>(events: RunEvent[], type: T) => events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);
const trip = (limits: Record<string, unknown> = {}) => ({ ...tripPlanner, mode: "plan-and-execute" as const, limits: { ...tripPlanner.limits, followUpWindowSeconds: 0, ...limits } });

/** A planner and one card, `w`, that holds the calculator and the transfer tool (and, with `typed`, an output schema). */
const workers = (plan: Record<string, unknown> = {}, limits: Record<string, unknown> = {}, typed = false) => ({
  entryAgent: "planner",
  mode: "plan-and-execute" as const,
  plan: { concurrency: 4, nodeRetries: 1, ...plan },
  agents: [
    { name: "planner", model: "demo/planner" },
    {
      name: "w",
      model: "demo/w",
      description: "does one part",
      tools: ["calculator", "ledger_transfer"],
      ...(typed ? { outputSchema: { schema: { type: "object", properties: { done: { type: "string" } }, required: ["done"] }, strict: false } } : {}),
    },
    { name: "writer", model: "demo/writer", description: "writes the answer" },
  ],
  limits: { followUpWindowSeconds: 0, ...limits },
});
const parallel = (n: number) => ({ nodes: Array.from({ length: n }, (_, i) => ({ id: `n${i}`, agent: "w", objective: `part ${i}`, dependsOn: [] })) });
const chain = { nodes: [{ id: "a", agent: "w", objective: "first", dependsOn: [] }, { id: "b", agent: "w", objective: "second", dependsOn: ["a"] }] };

// The tests run one after another on the harness's one worker. Side by side (describe.concurrent) they shared its
// workflow thread and event loop with every other test's runs and pollers: on a machine half as fast, beside three
// other files, a three-child routing run that fails in 8 s alone took over 60 s, and a plan with a 4-second run
// timeout had not started its nodes when the timeout fired (npm test, 2026-12-01, 3 runs of 3). Only one test moves
// money (node retries: no other test transfers from savings, so its balance check holds). The replay waits for them all.
describe("plans across turns", () => {
  it("gives a follow-up's plan child runs of its own: two sets of nodes, each with its own task", async () => {
    const { runId } = await h.engine.startRun({ graph: trip({ followUpWindowSeconds: 60 }), task: "Plan a 3-day trip to Paris\n@itinerary-planner: answer: Paris days" });
    await eventually(() => h.engine.getEvents(runId), (events) => ofType(events, "run_completed").length === 1, 60_000, "the first turn");
    await h.engine.sendMessage(runId, "Now plan 2 days in Rome\n@itinerary-planner: answer: Rome days");
    const events = await eventually(() => h.engine.getEvents(runId), (e) => ofType(e, "run_completed").length === 2, 60_000, "the follow-up's turn");
    expect(ofType(events, "run_completed").map((e) => e.output)).toEqual(["Paris days", "Rome days"]);
    const started = ofType(events, "plan_node_started");
    expect(started).toHaveLength(6);
    const ids = started.map((e) => e.runId);
    expect(new Set(ids).size).toBe(6);
    expect(ids.slice(0, 3).every((id) => id.startsWith(`${runId}.node-`))).toBe(true);
    expect(ids.slice(3).every((id) => id.startsWith(`${runId}.p2.node-`))).toBe(true);
    // Each turn's itinerary run is a row of its own, with its own task (the first is not overwritten).
    const first = await h.db.run.findUniqueOrThrow({ where: { id: ids[2]! } });
    const second = await h.db.run.findUniqueOrThrow({ where: { id: ids[5]! } });
    expect(first.task).toContain("Paris");
    expect(first.task).not.toContain("Rome");
    expect(second.task).toContain("Rome");
    expect([first.output, second.output]).toEqual(["Paris days", "Rome days"]);
    await h.engine.cancelRun(runId);
    await waitForStatus(h.engine, runId, ["cancelled"]);
  });
});

describe("routing", () => {
  it("never gives the task again to a child that failed this turn: not as the fallback, not as the default", async () => {
    // Attempt 2's decision names billing at low confidence (the failed technical is no longer on offer as its fallback):
    // the default, general, takes it. Attempt 3: billing is all that is left, and its low-confidence decision has no
    // alternative left (the default failed), so billing takes it.
    const task = "route technical 0.9\nroute billing 0.3 fallback technical\n@technical: fail model\n@general: fail model\n@billing: fail model";
    const { runId } = await h.engine.startRun({ graph: agentGraphSchema.parse({ ...helpDeskGraph, limits: { ...helpDeskGraph.limits, followUpWindowSeconds: 0 } }), task });
    const failed = await waitForStatus(h.engine, runId, ["failed"]);
    expect(failed.error?.reason).toBe("routing_exhausted");
    expect(failed.error?.message).toMatch(/^help-desk tried technical, general, billing and none finished/);
    const events = await h.engine.getEvents(runId);
    expect(ofType(events, "routing_decided").map((e) => [e.decision.target, e.decision.chosen])).toEqual([
      ["technical", "technical"],
      ["billing", "general"],
      ["billing", "billing"],
    ]);
    expect(ofType(events, "routing_decided")[1]?.decision.fallback).toBeNull();
    replayable.push(runId);
  });
});

describe("a plan that stops early", () => {
  it("cancelled: running children are cancelled and awaited, every node ends recorded as cancelled, the plan span closes", async () => {
    const { runId } = await h.engine.startRun({ graph: trip(), task: "Plan a slow trip\n@flight-researcher: think 30000\n@hotel-researcher: think 30000" });
    const started = await eventually(() => h.engine.getEvents(runId), (events) => ofType(events, "plan_node_started").length >= 2, 20_000, "two nodes to start");
    await h.engine.cancelRun(runId);
    await waitForStatus(h.engine, runId, ["cancelled"]);
    const events = await eventually(() => h.engine.getEvents(runId), (e) => ofType(e, "plan_finished").length === 1, 20_000, "plan_finished");
    const finished = Object.fromEntries(ofType(events, "plan_node_finished").map((e) => [e.nodeId, e]));
    expect(finished["flight-researcher"]).toMatchObject({ status: "cancelled", reason: "cancelled: the run was cancelled" });
    expect(finished["hotel-researcher"]).toMatchObject({ status: "cancelled" });
    expect(finished["itinerary-planner"]).toMatchObject({ status: "cancelled", runId: null, attempts: 0 });
    expect(ofType(events, "plan_finished")[0]).toMatchObject({ outcome: "cancelled", completed: 0, cancelled: 3, reason: "cancelled: the run was cancelled" });
    // The children stopped before the plan recorded them (awaited, not left to the parent-close policy), and their rows say so.
    for (const node of ofType(started, "plan_node_started")) {
      // The researchers are tool-less, so they ran inline (activities of the plan's run, cancelled and awaited the same way).
      expect((await h.engine.getRun(node.runId)).status).toBe("cancelled");
    }
    // Nodes with tools are child workflows: each is cancelled (not terminated by the parent-close policy) before it is recorded.
    const tooled = await h.engine.startRun({ graph: workers(), task: `Slow parts\n@planner: return ${JSON.stringify(parallel(2))}\n@w: think 30000` });
    const tooledStarted = await eventually(() => h.engine.getEvents(tooled.runId), (e) => ofType(e, "plan_node_started").length >= 2, 20_000, "two tool nodes to start");
    await h.engine.cancelRun(tooled.runId);
    await waitForStatus(h.engine, tooled.runId, ["cancelled"]);
    await eventually(() => h.engine.getEvents(tooled.runId), (e) => ofType(e, "plan_finished").length === 1, 20_000, "the tool plan's plan_finished");
    for (const node of ofType(tooledStarted, "plan_node_started")) {
      expect((await h.client.workflow.getHandle(node.runId).describe()).status.name).toBe("CANCELLED");
      expect((await h.engine.getRun(node.runId)).status).toBe("cancelled");
    }
    const flatten = (nodes: TraceNode[]): TraceNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);
    const plan = flatten(await h.engine.getTrace(runId)).find((s) => s.kind === "plan");
    expect(plan).toMatchObject({ status: "error", attributes: { outcome: "cancelled" } });
    expect(plan?.endedAt).not.toBeNull();
  });

  it("run timeout: the nodes are cancelled with the timeout as their reason, and the run fails timeout", async () => {
    // Long enough for the planner to start the nodes first, on a slow machine too (wait-scale.ts).
    const timeoutSeconds = Math.ceil(4 * waitScale());
    const { runId } = await h.engine.startRun({ graph: trip({ runTimeoutSeconds: timeoutSeconds }), task: "Plan a slow trip\n@flight-researcher: think 30000\n@hotel-researcher: think 30000" });
    const failed = await waitForStatus(h.engine, runId, ["failed"], 30_000);
    expect(failed.error?.reason).toBe("timeout");
    const events = await h.engine.getEvents(runId);
    const nodes = ofType(events, "plan_node_finished");
    expect(nodes.map((e) => e.status)).toEqual(["cancelled", "cancelled", "cancelled"]);
    expect(nodes[0]?.reason).toMatch(new RegExp(`^timeout: no final answer within the run timeout of ${timeoutSeconds} s`));
    expect(ofType(events, "plan_finished")[0]).toMatchObject({ outcome: "cancelled" });
    replayable.push(runId);
  });
});

describe("one budget per run tree", () => {
  it("gives each node a share of what the root has left: the tree's overrun is one model call per node, not a budget per node", async () => {
    // Each node would spend three calls of 1,000 tokens; the whole tree has 3,000.
    const task = `Do it in parts\n@planner: return ${JSON.stringify(parallel(3))}\n@w: tokens 1000\n@w: tool calculator {"expression":"1+1"}\n@w: tool calculator {"expression":"2+2"}\n@w: answer: done`;
    const { runId } = await h.engine.startRun({ graph: workers({}, { tokenBudget: 3000 }), task });
    const failed = await waitForStatus(h.engine, runId, ["failed"], 60_000);
    expect(failed.error?.reason).toBe("budget_exceeded");
    const events = await h.engine.getEvents(runId);
    const nodes = ofType(events, "plan_node_finished");
    expect(nodes).toHaveLength(3);
    for (const node of nodes) {
      // A budget failure is not retried: it would fail again.
      expect(node).toMatchObject({ status: "failed", attempts: 1, reason: expect.stringMatching(/^budget_exceeded/) });
    }
    const run = await h.engine.getRun(runId);
    const total = run.usage.inputTokens + run.usage.outputTokens;
    // Without shares each node had the whole 3,000 and the tree spent over 9,000.
    expect(total).toBeLessThanOrEqual(3000 + 3 * 1200);
    replayable.push(runId);
  });
});

describe("one budget per run tree, onBudget ask", () => {
  it("starts no node while the root asks for tokens; a grant gives the node that ran out another attempt", async () => {
    const approver = await h.db.user.findUniqueOrThrow({ where: { email: "approver@zap.local" } });
    // a spends its share (two calls of 600 against about 850 left), so the tree is out of tokens while b waits on a.
    const task = `Do it in order\n@planner: return ${JSON.stringify(chain)}\n@w: tokens 600\n@w: tool calculator {"expression":"1+1"}\n@w: answer: done`;
    const { runId } = await h.engine.startRun({ graph: workers({ nodeRetries: 0 }, { tokenBudget: 1000, onBudget: "ask" }), task });
    await waitForStatus(h.engine, runId, ["awaiting_approval"], 60_000);
    const [approval] = await h.engine.getPendingApprovals(runId);
    const waiting = await h.engine.getEvents(runId);
    expect(ofType(waiting, "plan_node_started").map((e) => e.nodeId)).toEqual(["a"]);
    expect(ofType(waiting, "plan_node_finished")).toEqual([]);
    await h.engine.decideApproval(runId, { approvalId: approval!.id, approved: true, editedArguments: { tokens: 10_000 }, decidedBy: { id: approver.id, email: approver.email, role: approver.role } });
    expect(await waitForStatus(h.engine, runId, ["completed"], 60_000)).toMatchObject({ output: "done" });
    const events = await h.engine.getEvents(runId);
    // b started only after the grant, and a's second attempt did not spend its (zero) retries.
    const extended = events.find((e) => e.type === "budget_extended")!.seq;
    expect(ofType(events, "plan_node_started").map((e) => [e.nodeId, e.attempt, e.seq > extended])).toEqual([
      ["a", 1, false],
      ["a", 2, true],
      ["b", 1, true],
    ]);
    expect(ofType(events, "plan_node_finished").map((e) => [e.nodeId, e.status])).toEqual([
      ["a", "completed"],
      ["b", "completed"],
    ]);
    replayable.push(runId);
  });
});

describe("node retries", () => {
  it("retries a node whose model failed; the transfer it made is not made again", async () => {
    const before = await h.db.ledgerAccount.findUniqueOrThrow({ where: { id: "savings" } });
    const task = `Pay\n@planner: return ${JSON.stringify({ nodes: [{ id: "pay", agent: "w", objective: "pay the supplier", dependsOn: [] }] })}\n@w: tool ledger_transfer {"from_account":"savings","to_account":"operating","amount":3}\n@w: fail model once\n@w: answer: paid`;
    const { runId } = await h.engine.startRun({ graph: workers(), task });
    const done = await waitForStatus(h.engine, runId, ["completed"], 60_000);
    expect(done.output).toBe("paid");
    const events = await h.engine.getEvents(runId);
    expect(ofType(events, "plan_node_started").map((e) => e.attempt)).toEqual([1, 2]);
    expect(ofType(events, "plan_node_finished")[0]).toMatchObject({ status: "completed", attempts: 2 });
    // One entry, one recorded execution; attempt 2's call got attempt 1's result.
    expect(await h.db.ledgerEntry.count({ where: { runId } })).toBe(1);
    expect(await h.db.toolExecution.count({ where: { runId } })).toBe(1);
    const after = await h.db.ledgerAccount.findUniqueOrThrow({ where: { id: "savings" } });
    expect(before.balanceCents - after.balanceCents).toBe(300);
    const second = ofType(events, "plan_node_started")[1]!.runId;
    const result = ofType(await h.engine.getEvents(second), "tool_call_completed")[0];
    expect(JSON.stringify(result)).toContain("replayed");
    replayable.push(runId);
  });

  it("does not retry a soft failure (agent_failed), an invalid answer or a step limit", async () => {
    const task = `Do it\n@planner: return ${JSON.stringify(chain)}\n@w: fail: the part cannot be done`;
    const { runId } = await h.engine.startRun({ graph: workers({}, {}, true), task });
    await waitForStatus(h.engine, runId, ["failed"], 60_000);
    const events = await h.engine.getEvents(runId);
    expect(ofType(events, "plan_node_started").map((e) => [e.nodeId, e.attempt])).toEqual([["a", 1]]);
    expect(ofType(events, "plan_node_finished")[0]).toMatchObject({ nodeId: "a", status: "failed", attempts: 1, reason: expect.stringMatching(/^agent_failed/) });

    const invalid = await h.engine.startRun({ graph: workers({}, {}, true), task: `Do it\n@planner: return ${JSON.stringify(chain)}\n@w: invalid 5` });
    await waitForStatus(h.engine, invalid.runId, ["failed"], 60_000);
    const invalidEvents = await h.engine.getEvents(invalid.runId);
    expect(ofType(invalidEvents, "plan_node_finished")[0]).toMatchObject({ nodeId: "a", attempts: 1, reason: expect.stringMatching(/^validation_error/) });
  });
});

describe("synthesis", () => {
  it("answers from the sink nodes' results, or fails the run plan_failed naming the synthesis", async () => {
    const graph = workers({ synthesisAgent: "writer" });
    const ok = await h.engine.startRun({ graph, task: `Do it\n@planner: return ${JSON.stringify(parallel(2))}\n@w: answer: part done\n@writer: answer: all written up` });
    expect(await waitForStatus(h.engine, ok.runId, ["completed"], 60_000)).toMatchObject({ output: "all written up" });
    const events = await h.engine.getEvents(ok.runId);
    expect(await h.engine.getRun(`${ok.runId}.synthesis`)).toMatchObject({ agentName: "writer", status: "completed" });
    // The sinks' results reach the synthesis by reference: its message names their runs.
    const brief = (await h.engine.getHistory(`${ok.runId}.synthesis`)).find((m) => m.role === "user");
    expect(brief?.content).toMatch(/Write the answer from these results\.\nResults of the nodes this one depends on:$/);
    const nodeRun = (id: string) => ofType(events, "plan_node_started").find((e) => e.nodeId === id)?.runId;
    expect(brief?.role === "user" ? brief.results : undefined).toEqual([
      { nodeId: "n0", agent: "w", runId: nodeRun("n0") },
      { nodeId: "n1", agent: "w", runId: nodeRun("n1") },
    ]);
    expect(ofType(events, "plan_finished")[0]).toMatchObject({ outcome: "completed" });

    const bad = await h.engine.startRun({ graph, task: `Do it\n@planner: return ${JSON.stringify(parallel(2))}\n@w: answer: part done\n@writer: fail model` });
    const failed = await waitForStatus(h.engine, bad.runId, ["failed"], 60_000);
    expect(failed.error).toMatchObject({ reason: "plan_failed", message: expect.stringMatching(/^the synthesis by writer failed: model_error/) });
    replayable.push(ok.runId, bad.runId);
  });
});

describe("replay", () => {
  it("replays every execution of the runs above, children included", async () => {
    expect(await replayRunTrees(h, replayable)).toBeGreaterThan(replayable.length);
  });
});
