// Orchestration modes on the real Temporal dev server (issue 16): typed
// answers with repair, soft failure, supervisor routing with fallback and
// re-routing, handoffs, and the run's step cap.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { replayRunTrees } from "../../scripts/test-support/replay";
import { readRunRows } from "../../lib/run-ledger/read";
import { testProviders } from "../../scripts/test-support/databases";
import type { RunEvent, TraceNode } from "../../lib/contract/types";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness();
});
afterAll(async () => h?.stop());

const triageSchema = {
  type: "object",
  properties: {
    answer: { type: "string" },
    confidence: { type: "number", minimum: 0, maximum: 1 },
    sources: { type: "array", items: { type: "string" } },
    action_required: { type: "boolean" },
  },
  required: ["answer", "confidence", "sources", "action_required"],
};

const typedGraph = (strict = false) => ({
  entryAgent: "triage",
  agents: [{ name: "triage", model: "demo/triage", outputSchema: { schema: triageSchema, strict } }],
  limits: { followUpWindowSeconds: 0 },
});

/** Runs whose every execution is replayed at the end (new workflow paths must be deterministic too). */
const replayable: string[] = [];

const ofType = <T extends RunEvent["type"]>(events: RunEvent[], type: T) => events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

describe("typed answers", () => {
  it("returns typed data through the return tool, stored and shown as JSON", async () => {
    const data = { answer: "INV-1 was rejected", confidence: 0.8, sources: ["erp"], action_required: true };
    const { runId } = await h.engine.startRun({ graph: typedGraph(), task: `tool return ${JSON.stringify(data)}` });
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    expect(summary.outputData).toEqual(data);
    expect(JSON.parse(summary.output ?? "null")).toEqual(data);
    replayable.push(runId);
    const events = await h.engine.getEvents(runId);
    expect(ofType(events, "run_completed")[0]?.data).toEqual(data);
  });

  it("repairs an invalid answer, then fails with validation_error after two repairs, errors and raw output kept", async () => {
    const { runId } = await h.engine.startRun({ graph: typedGraph(), task: `tool return {"answer": 3, "confidence": 2}` });
    const summary = await waitForStatus(h.engine, runId, ["failed"]);
    expect(summary.error?.reason).toBe("validation_error");
    const events = await h.engine.getEvents(runId);
    const invalid = ofType(events, "output_invalid");
    expect(invalid.map((e) => [e.attempt, e.repairing])).toEqual([
      [1, true],
      [2, true],
      [3, false],
    ]);
    expect(invalid[0]?.errors).toEqual(expect.arrayContaining(["/answer must be string", "/confidence must be <= 1"]));
    const failed = ofType(events, "run_failed")[0];
    expect(failed?.details?.rawOutput).toContain('"confidence": 2');
    replayable.push(runId);
    // Each repair was an iteration of its own: three answers, three iterations.
    expect(summary.iteration).toBe(3);
    const history = await h.engine.getHistory(runId);
    expect(history.filter((m) => m.role === "user" && m.content.startsWith("Your output failed validation:"))).toHaveLength(2);
    // The iteration whose answer ran out of repairs ends with the run: no span is left running in the trace.
    const flat = (nodes: TraceNode[]): TraceNode[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
    const spans = flat(await h.engine.getTrace(runId));
    expect(spans.filter((s) => s.status === "running").map((s) => `${s.kind} ${s.name}`)).toEqual([]);
    expect(spans.find((s) => s.kind === "iteration" && s.name === "iteration 3")).toMatchObject({ status: "error", attributes: { outcome: "validation_error" } });
  });

  it("accepts the repaired answer after an invalid one, the repair counted as an iteration", async () => {
    const { runId } = await h.engine.startRun({ graph: typedGraph(), task: "invalid 1" });
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    expect(summary.iteration).toBe(2);
    const invalid = ofType(await h.engine.getEvents(runId), "output_invalid");
    expect(invalid.map((e) => [e.attempt, e.repairing])).toEqual([[1, true]]);
    expect(summary.outputData).toMatchObject({ answer: expect.any(String), confidence: expect.any(Number), sources: expect.any(Array), action_required: expect.any(Boolean) });
    replayable.push(runId);
  });

  it("gives a parent the typed answer of a sub-agent as JSON in its message_agent result", async () => {
    const graph = {
      entryAgent: "lead",
      agents: [
        { name: "lead", model: "demo/lead", subAgents: ["triage"] },
        { name: "triage", model: "demo/triage", description: "typed triage", outputSchema: { schema: triageSchema } },
      ],
      limits: { followUpWindowSeconds: 0, subAgentIdleTimeoutSeconds: 1 },
    };
    const data = { answer: "ok", confidence: 0.7, sources: ["erp"], action_required: false };
    const { runId } = await h.engine.startRun({ graph, task: `message triage: tool return ${JSON.stringify(data)}\n@lead: answer: consulted` });
    await waitForStatus(h.engine, runId, ["completed"]);
    const reply = (await h.engine.getHistory(runId)).find((m) => m.role === "tool");
    expect(JSON.parse(reply?.role === "tool" ? reply.content : "{}")).toMatchObject({ agent_name: "triage", response: data });
  });

  it("refuses extra fields only when the schema is strict (DD-3)", async () => {
    const extra = { answer: "a", confidence: 0.5, sources: [], action_required: false, mood: "fine" };
    const lenient = await h.engine.startRun({ graph: typedGraph(false), task: `tool return ${JSON.stringify(extra)}` });
    expect((await waitForStatus(h.engine, lenient.runId, ["completed"])).outputData).toEqual(extra);
    const strict = await h.engine.startRun({ graph: typedGraph(true), task: `tool return ${JSON.stringify(extra)}` });
    await waitForStatus(h.engine, strict.runId, ["failed"]);
    const invalid = ofType(await h.engine.getEvents(strict.runId), "output_invalid");
    expect(invalid[0]?.errors).toContain('(root) has a field the schema does not allow: "mood"');
  });

  it("ends with a soft failure when the agent calls fail (agent_failed, no retries)", async () => {
    const { runId } = await h.engine.startRun({ graph: typedGraph(), task: `tool fail {"reason": "the invoice system is read-only today"}` });
    const summary = await waitForStatus(h.engine, runId, ["failed"]);
    expect(summary.error).toMatchObject({ reason: "agent_failed", message: "triage gave up: the invoice system is read-only today" });
    expect(summary.iteration).toBe(1);
  });
});

const helpDesk = (router: Record<string, unknown> = {}) => ({
  entryAgent: "desk",
  agents: [
    { name: "desk", model: "demo/router", kind: "router" as const, subAgents: ["billing", "technical", "general"], router: { threshold: 0.7, defaultAgent: "general", maxAttempts: 3, ...router } },
    { name: "billing", model: "demo/billing", description: "invoices, refunds and charges" },
    { name: "technical", model: "demo/technical", description: "errors, login problems and outages" },
    { name: "general", model: "demo/general", description: "anything else" },
  ],
  limits: { followUpWindowSeconds: 0 },
});

describe("supervisor routing", () => {
  it("routes a confident decision to its target, whose answer is the run's, recorded as a span, an event and routed_to", async () => {
    const { runId } = await h.engine.startRun({ graph: helpDesk(), task: "route technical 0.92\n@technical: answer: restart the router" });
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    expect(summary.output).toBe("restart the router");
    expect(summary.routedTo).toBe("technical");
    const decision = ofType(await h.engine.getEvents(runId), "routing_decided")[0]?.decision;
    expect(decision).toMatchObject({ router: "desk", target: "technical", confidence: 0.92, chosen: "technical", fallbackTaken: false, threshold: 0.7, attempt: 1 });
    const spans = (await h.engine.getTrace(runId)).flatMap(function flat(n): typeof n[] {
      return [n, ...n.children.flatMap(flat)];
    });
    expect(spans.find((s) => s.kind === "routing")?.attributes).toMatchObject({ target: "technical", chosen: "technical", fallbackTaken: false });
    const child = spans.find((s) => s.kind === "sub_agent");
    expect(child).toMatchObject({ name: "technical", status: "ok" });
    // The chosen agent ran as a sub-run of its own, one task and closed.
    const childRunId = String(child?.attributes?.childRunId);
    expect(await h.engine.getRun(childRunId)).toMatchObject({ agentName: "technical", parentRunId: runId, status: "completed" });
  });

  it("gives a low-confidence task to the decision's fallback, else to the router's default agent", async () => {
    const withFallback = await h.engine.startRun({ graph: helpDesk(), task: "route billing 0.4 fallback technical\n@technical: answer: technical took it" });
    const first = await waitForStatus(h.engine, withFallback.runId, ["completed"]);
    expect(first).toMatchObject({ output: "technical took it", routedTo: "technical" });
    expect(ofType(await h.engine.getEvents(withFallback.runId), "routing_decided")[0]?.decision).toMatchObject({ target: "billing", fallback: "technical", chosen: "technical", fallbackTaken: true });

    const toDefault = await h.engine.startRun({ graph: helpDesk(), task: "route billing 0.3\n@general: answer: general took it" });
    expect(await waitForStatus(h.engine, toDefault.runId, ["completed"])).toMatchObject({ output: "general took it", routedTo: "general" });
  });

  it("routes again when the chosen child fails, and fails with routing_exhausted when every attempt is spent", async () => {
    const rerouted = await h.engine.startRun({ graph: helpDesk(), task: "route technical 0.9\nroute billing 0.8\n@technical: fail model\n@billing: answer: billing fixed it" });
    const done = await waitForStatus(h.engine, rerouted.runId, ["completed"]);
    expect(done).toMatchObject({ output: "billing fixed it", routedTo: "billing" });
    const events = await h.engine.getEvents(rerouted.runId);
    expect(ofType(events, "routed_agent_failed").map((e) => [e.agentName, e.attempt])).toEqual([["technical", 1]]);
    expect(ofType(events, "routing_decided").map((e) => e.decision.chosen)).toEqual(["technical", "billing"]);

    const exhausted = await h.engine.startRun({ graph: helpDesk({ maxAttempts: 2 }), task: "route technical 0.9\nroute billing 0.8\n@technical: fail model\n@billing: fail model" });
    const failed = await waitForStatus(h.engine, exhausted.runId, ["failed"]);
    expect(failed.error?.reason).toBe("routing_exhausted");
    const details = ofType(await h.engine.getEvents(exhausted.runId), "run_failed")[0]?.details;
    expect(details?.attempts?.map((a) => a.agentName)).toEqual(["technical", "billing"]);
    expect(details?.attempts?.[0]?.reason).toMatch(/model_error/);
    replayable.push(rerouted.runId, exhausted.runId);
  });

  it("counts the tokens of a child that failed after working in the router's usage", async () => {
    // technical holds `fail` (it has an output schema): it spends a model call, then gives up.
    const graph = helpDesk();
    const agents = graph.agents.map((a) => (a.name === "technical" ? { ...a, outputSchema: { schema: { type: "object", properties: { fix: { type: "string" } } } } } : a));
    const { runId } = await h.engine.startRun({ graph: { ...graph, agents }, task: "route technical 0.9\nroute billing 0.8\n@technical: tokens 700\n@technical: fail: no access to the logs\n@billing: answer: billing fixed it" });
    const done = await waitForStatus(h.engine, runId, ["completed"]);
    const failedRunId = ofType(await h.engine.getEvents(runId), "routed_agent_failed")[0]?.runId ?? "";
    const technical = await h.engine.getRun(failedRunId);
    expect(technical.error?.reason).toBe("agent_failed");
    expect(technical.usage.outputTokens).toBeGreaterThanOrEqual(700);
    // The router's total: its own model calls plus both children's (the one that failed and the one that answered).
    const spans = (await h.engine.getTrace(runId)).flatMap(function flatten(node: TraceNode): TraceNode[] {
      return [node, ...node.children.flatMap(flatten)];
    });
    const ownOutput = spans.filter((s) => s.kind === "inference").reduce((sum, s) => sum + (s.tokens?.outputTokens ?? 0), 0);
    const childRunIds = spans.filter((s) => s.kind === "sub_agent").map((s) => String(s.attributes?.childRunId));
    expect(childRunIds).toHaveLength(2);
    expect(childRunIds).toContain(failedRunId);
    const children = await Promise.all(childRunIds.map((id) => h.engine.getRun(id)));
    expect(done.usage.outputTokens).toBe(ownOutput + children.reduce((sum, c) => sum + c.usage.outputTokens, 0));
    replayable.push(runId);
  });
});

const frontDesk = (limits: Record<string, unknown> = {}) => ({
  entryAgent: "front",
  agents: [
    { name: "front", model: "demo/front", tools: ["calculator"], handoffs: ["refunds"], handoffContext: "summary" as const },
    { name: "refunds", model: "demo/refunds", description: "refund specialist", systemPrompt: "You handle refunds.", handoffs: ["front"] },
  ],
  limits: { followUpWindowSeconds: 0, ...limits },
});

describe("handoffs", () => {
  it("passes the conversation to the receiver for good: its answer is the run's, with the context and a handoff event", async () => {
    const { runId } = await h.engine.startRun({
      graph: frontDesk(),
      task: 'tool calculator {"expression": "2*21"}\nhandoff refunds: the customer wants money back\n@refunds: answer: refund issued',
    });
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    expect(summary.output).toBe("refund issued");
    const handoff = ofType(await h.engine.getEvents(runId), "handoff")[0];
    expect(handoff).toMatchObject({ from: "front", to: "refunds", reason: "the customer wants money back", depth: 1, context: "summary" });
    const history = await h.engine.getHistory(runId);
    // The receiver's conversation opens at messageIndex: its own system prompt, then the context and the task.
    expect(history[handoff!.messageIndex]).toEqual({ role: "system", content: "You handle refunds." });
    const opening = history[handoff!.messageIndex + 1];
    expect(opening?.role).toBe("user");
    expect(opening?.content).toMatch(/^You are taking over this conversation from front \(reason: the customer wants money back\)/);
    expect(opening?.content).toContain("front used: calculator");
    expect(opening?.content).toContain("handoff refunds: the customer wants money back");
    replayable.push(runId);
  });

  it("stops a ping-pong of handoffs at maxHandoffs with handoff_depth_exceeded", async () => {
    const { runId } = await h.engine.startRun({ graph: frontDesk({ maxHandoffs: 3 }), task: "@front: handoff refunds: yours\n@refunds: handoff front: no, yours" });
    const summary = await waitForStatus(h.engine, runId, ["failed"]);
    expect(summary.error?.reason).toBe("handoff_depth_exceeded");
    expect(ofType(await h.engine.getEvents(runId), "handoff").map((e) => `${e.from}→${e.to}`)).toEqual(["front→refunds", "refunds→front", "front→refunds"]);
  });
});

describe("model inheritance (DD-7)", () => {
  it("runs an agent whose model is inherit on the model of the agent that asked it: parent, router or handoff sender", async () => {
    const graph = {
      entryAgent: "desk",
      agents: [
        { name: "desk", model: "demo/desk-model", kind: "router" as const, subAgents: ["helper"] },
        { name: "helper", model: "inherit", subAgents: ["deep"], handoffs: ["closer"] },
        { name: "deep", model: "inherit", description: "deep" },
        { name: "closer", model: "inherit", description: "closer" },
      ],
      limits: { followUpWindowSeconds: 0, subAgentIdleTimeoutSeconds: 1 },
    };
    const task = "route helper 0.9\n@helper: message deep: hi\n@helper: handoff closer: wrap up\n@deep: answer: deep done\n@closer: answer: closed";
    const { runId } = await h.engine.startRun({ graph, task });
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    expect(summary.output).toBe("closed");
    const helperRun = String((await h.engine.getTrace(runId)).flatMap(function flat(n): typeof n[] {
      return [n, ...n.children.flatMap(flat)];
    }).find((s) => s.kind === "sub_agent")?.attributes?.childRunId);
    const models = ofType(await h.engine.getEvents(helperRun), "inference_started").map((e) => e.model);
    // helper (inheriting the router's model) and closer (inheriting helper's, after the handoff).
    expect(new Set(models)).toEqual(new Set(["demo/desk-model"]));
    const deep = (await h.engine.getConversations(helperRun))[0];
    expect(ofType(await h.engine.getEvents(deep!.conversationId), "inference_started").map((e) => e.model)).toEqual(["demo/desk-model"]);
  });
});

describe("run step cap", () => {
  it("fails with step_limit_exceeded at limits.maxSteps across the run", async () => {
    const { runId } = await h.engine.startRun({ graph: { ...frontDesk({ maxSteps: 3 }) }, task: 'repeat 5 tool calculator {"expression": "1+1"}' });
    const summary = await waitForStatus(h.engine, runId, ["failed"]);
    expect(summary.error).toMatchObject({ reason: "step_limit_exceeded" });
    expect(summary.error?.message).toContain("limits.maxSteps");
    expect(summary.iteration).toBe(3);
  });

  it("counts steps per task: a follow-up has steps of its own", async () => {
    const { runId } = await h.engine.startRun({ graph: frontDesk({ maxSteps: 3, followUpWindowSeconds: 60 }), task: 'tool calculator {"expression": "1+1"}\nanswer: one' });
    expect((await waitForStatus(h.engine, runId, ["completed"])).output).toBe("one");
    await h.engine.sendMessage(runId, 'tool calculator {"expression": "2+2"}\nanswer: two');
    const after = await eventually(() => h.engine.getRun(runId), (s) => s.output === "two" || s.status === "failed", 20_000, "the follow-up's answer");
    expect(after).toMatchObject({ output: "two", status: "completed", iteration: 4 });
  });
});

describe("replay", () => {
  it("replays every execution of the typed, repaired, routed, re-routed and handed-off runs above", async () => {
    expect(replayable.length).toBeGreaterThanOrEqual(6);
    const replayed = await replayRunTrees(h, replayable);
    // The routed runs' children are replayed too.
    expect(replayed).toBeGreaterThan(replayable.length);
  });
});

const providers = await testProviders();

describe.each(providers)("the run ledger of typed and routed runs on $provider", ({ available, create }) => {
  let db: EngineHarness;
  beforeAll(async () => {
    if (available) db = await startEngineHarness({ database: await create() });
  });
  afterAll(async () => {
    if (available) await db.stop();
  });

  it.skipIf(!available)("stores the typed answer and the routed-to agent, and filters runs by it", async () => {
    const typed = await db.engine.startRun({ graph: typedGraph(), task: "answer the question" });
    const routed = await db.engine.startRun({ graph: helpDesk(), task: "route billing 0.95\n@billing: answer: billed" });
    const typedRun = await waitForStatus(db.engine, typed.runId, ["completed"]);
    expect(typedRun.outputData).toMatchObject({ answer: expect.any(String), confidence: expect.any(Number) });
    await waitForStatus(db.engine, routed.runId, ["completed"]);
    const { rows } = await readRunRows(db.db, { routedTo: "billing" }, { take: 10 });
    expect(rows.map((r) => r.id)).toEqual([routed.runId]);
    expect(rows[0]?.outputData).toBeNull();
  });
});
