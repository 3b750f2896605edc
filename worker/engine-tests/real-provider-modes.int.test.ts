// The orchestration modes through the real provider path (issue 22 §3): the
// AI SDK's OpenAI-compatible provider over HTTP to a scripted server, so typed
// answers and their repair, routing and re-routing, handoffs and plans are
// read from real `return` and `handoff` tool calls — not from the demo model's
// script. Each agent runs on a model of its own and the server answers each
// model from its own script, so replies reach the right agent whatever order
// the requests come in (parallel plan nodes do not arrive in a fixed order).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { startChatCompletionsServer, type ChatCompletionsServer, type ScriptedReply } from "../../scripts/test-support/chat-completions-server";
import { HANDOFF_PROMPT_PREFIX, REPAIR_PROMPT_PREFIX, REROUTE_PROMPT_PREFIX } from "../../lib/contract/system-tools";
import type { RunEvent } from "../../lib/contract/types";

let h: EngineHarness;
let llm: ChatCompletionsServer;
beforeAll(async () => {
  llm = await startChatCompletionsServer();
  // Configured as for llama.cpp (as in openai-compatible.int.test.ts): structured outputs on, tool calls read from text.
  h = await startEngineHarness({
    env: {
      OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
      OPENAI_COMPATIBLE_NAME: "local",
      OPENAI_COMPATIBLE_API_KEY: "test-key",
      OPENAI_COMPATIBLE_STRUCTURED_OUTPUTS: "true",
      OPENAI_COMPATIBLE_TOOL_CALLS_IN_TEXT: "true",
    },
  });
});
beforeEach(() => llm.reset());
afterAll(async () => {
  await h?.stop();
  await llm?.close();
});

/** Runs take seconds alone; beside another engine test on two busy cores a routed run took 30 s once. */
const RUN_WAIT_MS = 60_000;
const TEST_TIMEOUT_MS = 90_000;

/** The model id of an agent on the scripted server: its requests name `model`, which picks its script. */
const onServer = (model: string) => `openai-compatible/local/${model}`;

interface RecordedTool {
  function: { name: string; parameters: { properties?: Record<string, { enum?: string[] }> } };
}
interface RecordedRequest {
  model: string;
  tools?: RecordedTool[];
  response_format?: { type: string; json_schema?: { schema: { properties?: Record<string, { enum?: string[] }> } } };
  messages: { role: string; content?: string | null }[];
}
const requestsOf = (model: string) => (llm.requests as unknown as RecordedRequest[]).filter((r) => r.model === model);
const toolOf = (request: RecordedRequest | undefined, name: string) => request?.tools?.find((t) => t.function.name === name)?.function;
const userMessages = (request: RecordedRequest | undefined) => (request?.messages ?? []).filter((m) => m.role === "user").map((m) => m.content ?? "");
const ofType = <T extends RunEvent["type"]>(events: RunEvent[], type: T) => events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

let callSeq = 0;
/** A reply that is one tool call with these arguments. */
const call = (name: string, args: unknown): ScriptedReply => ({ toolCalls: [{ id: `call_${++callSeq}`, name, arguments: JSON.stringify(args) }] });

/** After a run, every scripted reply was taken and no request went without one: no agent answered from another's script. */
function expectScriptSpent(): void {
  expect(llm.pending(), "scripted replies nobody asked for").toBe(0);
  expect(llm.unscripted(), "requests that found no scripted reply").toBe(0);
}

describe("typed answers through the provider", () => {
  const schema = { type: "object", properties: { product: { type: "number" } }, required: ["product"] };
  const graph = { entryAgent: "typed", agents: [{ name: "typed", model: onServer("typed"), systemPrompt: "Be exact.", outputSchema: { schema } }], limits: { followUpWindowSeconds: 0 } };

  it("repairs a return call that breaks the schema: the model is told the error, and its second return is the run's data", async () => {
    llm.scriptFor("typed", [call("return", { product: "forty-two" }), call("return", { product: 42 })]);
    const { runId } = await h.engine.startRun({ graph, task: "What is six times seven?" });
    const summary = await waitForStatus(h.engine, runId, ["completed"], RUN_WAIT_MS);
    expect(summary.outputData).toEqual({ product: 42 });
    expect(summary.iteration, "the repair was an iteration of its own").toBe(2);

    const [first, second] = requestsOf("typed");
    expect(requestsOf("typed")).toHaveLength(2);
    expect(toolOf(first, "return")?.parameters, "return's parameters are the answer's schema").toMatchObject(schema);
    expect(userMessages(first).some((m) => m.startsWith(REPAIR_PROMPT_PREFIX)), "no repair before an answer").toBe(false);
    const repair = userMessages(second).find((m) => m.startsWith(REPAIR_PROMPT_PREFIX));
    expect(repair, "the second request carries the repair prompt").toBeDefined();
    expect(repair).toContain("/product must be number");
    expect(repair).toContain("forty-two");

    const invalid = ofType(await h.engine.getEvents(runId), "output_invalid");
    expect(invalid.map((e) => [e.attempt, e.repairing])).toEqual([[1, true]]);
    expectScriptSpent();
  }, TEST_TIMEOUT_MS);
});

const helpDesk = {
  entryAgent: "desk",
  agents: [
    { name: "desk", model: onServer("desk"), kind: "router" as const, subAgents: ["billing", "technical", "general"], router: { threshold: 0.7, defaultAgent: "general", maxAttempts: 3 } },
    { name: "billing", model: onServer("billing"), description: "invoices, refunds and charges" },
    { name: "technical", model: onServer("technical"), description: "errors, login problems and outages" },
    { name: "general", model: onServer("general"), description: "anything else" },
  ],
  limits: { followUpWindowSeconds: 0 },
};

describe("routing through the provider", () => {
  it("routes on the router's return call to the chosen child, whose answer is the run's", async () => {
    llm.scriptFor("desk", [call("return", { target: "billing", confidence: 0.9, reason: "an invoice question" })]);
    llm.scriptFor("billing", [{ content: "INV-1001 was rejected: the PO number is missing." }]);
    const { runId } = await h.engine.startRun({ graph: helpDesk, task: "Why was invoice INV-1001 rejected?" });
    const summary = await waitForStatus(h.engine, runId, ["completed"], RUN_WAIT_MS);
    expect(summary).toMatchObject({ output: "INV-1001 was rejected: the PO number is missing.", routedTo: "billing" });

    const decision = ofType(await h.engine.getEvents(runId), "routing_decided")[0]?.decision;
    expect(decision).toMatchObject({ router: "desk", target: "billing", confidence: 0.9, reason: "an invoice question", chosen: "billing", fallbackTaken: false, attempt: 1 });
    expect(toolOf(requestsOf("desk")[0], "return")?.parameters.properties?.target?.enum, "the first decision may name any child").toEqual(["billing", "technical", "general"]);
    expect(userMessages(requestsOf("billing")[0]), "the child gets the user's task").toContain("Why was invoice INV-1001 rejected?");
    expect(requestsOf("technical").concat(requestsOf("general")), "no other child was asked").toEqual([]);
    expectScriptSpent();
  }, TEST_TIMEOUT_MS);

  it("after the chosen child fails, offers only the children left: a decision for the failed one is repaired, the next one runs", async () => {
    llm.scriptFor("desk", [
      call("return", { target: "technical", confidence: 0.9, reason: "sounds like an error" }),
      // Names the child that just failed: outside the decision's schema now, so it is repaired.
      call("return", { target: "technical", confidence: 0.9, reason: "still technical" }),
      call("return", { target: "billing", confidence: 0.8, reason: "then billing" }),
    ]);
    // A 401 is a model error no retry fixes: the technical child fails for good.
    llm.scriptFor("technical", [{ status: 401 }]);
    llm.scriptFor("billing", [{ content: "billing fixed it" }]);
    const { runId } = await h.engine.startRun({ graph: helpDesk, task: "I get an error when I pay my invoice" });
    const summary = await waitForStatus(h.engine, runId, ["completed"], RUN_WAIT_MS);
    expect(summary).toMatchObject({ output: "billing fixed it", routedTo: "billing" });

    const events = await h.engine.getEvents(runId);
    expect(ofType(events, "routed_agent_failed").map((e) => [e.agentName, e.attempt, e.reason])).toEqual([["technical", 1, expect.stringMatching(/model_error/)]]);
    expect(ofType(events, "routing_decided").map((e) => [e.decision.chosen, e.decision.attempt])).toEqual([
      ["technical", 1],
      ["billing", 2],
    ]);
    expect(requestsOf("technical"), "the failed child never ran again").toHaveLength(1);

    const desk = requestsOf("desk");
    expect(desk).toHaveLength(3);
    expect(toolOf(desk[0], "return")?.parameters.properties?.target?.enum).toEqual(["billing", "technical", "general"]);
    for (const [i, request] of desk.slice(1).entries()) {
      const decision = toolOf(request, "return")?.parameters.properties;
      expect(decision?.target?.enum, `re-route request ${i + 2}: return's target names only the children left`).toEqual(["billing", "general"]);
      expect(decision?.fallback?.enum, `re-route request ${i + 2}: so does its fallback`).toEqual(["billing", "general"]);
      expect(request.response_format?.json_schema?.schema.properties?.target?.enum, `re-route request ${i + 2}: and the response format`).toEqual(["billing", "general"]);
    }
    const reroute = userMessages(desk[1]).find((m) => m.startsWith(REROUTE_PROMPT_PREFIX));
    expect(reroute, "the router is told who failed and who is left").toMatch(/technical failed .*Route the task again to one of: billing, general\./);
    const repair = userMessages(desk[2]).find((m) => m.startsWith(REPAIR_PROMPT_PREFIX));
    expect(repair, "a decision for the failed child is an invalid answer, repaired").toMatch(/\/target/);
    expect(ofType(events, "output_invalid").map((e) => e.attempt)).toEqual([1]);
    expectScriptSpent();
  }, TEST_TIMEOUT_MS);
});

describe("handoffs through the provider", () => {
  const frontDesk = {
    entryAgent: "front",
    agents: [
      { name: "front", model: onServer("front"), handoffs: ["refunds"], handoffContext: "summary" as const },
      { name: "refunds", model: onServer("refunds"), description: "refund specialist", systemPrompt: "You handle refunds." },
    ],
    limits: { followUpWindowSeconds: 0 },
  };

  it("a handoff call passes the conversation to the receiver, whose answer is the run's", async () => {
    llm.scriptFor("front", [call("handoff", { agent: "refunds", reason: "the customer wants money back" })]);
    llm.scriptFor("refunds", [{ content: "Refund of order A-1003 issued." }]);
    const { runId } = await h.engine.startRun({ graph: frontDesk, task: "I want a refund for order A-1003" });
    const summary = await waitForStatus(h.engine, runId, ["completed"], RUN_WAIT_MS);
    expect(summary.output).toBe("Refund of order A-1003 issued.");

    const handoff = ofType(await h.engine.getEvents(runId), "handoff");
    expect(handoff).toHaveLength(1);
    expect(handoff[0]).toMatchObject({ from: "front", to: "refunds", reason: "the customer wants money back", depth: 1, context: "summary" });
    expect(toolOf(requestsOf("front")[0], "handoff")?.parameters.properties?.agent?.enum, "front is offered its handoff target").toEqual(["refunds"]);
    const receiver = requestsOf("refunds")[0];
    expect(receiver?.messages[0], "the receiver speaks with its own system prompt").toEqual({ role: "system", content: "You handle refunds." });
    const opening = userMessages(receiver)[0] ?? "";
    expect(opening.startsWith(`${HANDOFF_PROMPT_PREFIX} front (reason: the customer wants money back)`), opening).toBe(true);
    expect(opening).toContain("I want a refund for order A-1003");
    expectScriptSpent();
  }, TEST_TIMEOUT_MS);
});

describe("plan and execute through the provider", () => {
  const tripGraph = {
    entryAgent: "planner",
    mode: "plan-and-execute" as const,
    plan: { maxNodes: 10, concurrency: 4, approval: false, nodeRetries: 0 },
    agents: [
      { name: "planner", model: onServer("planner") },
      { name: "flights", model: onServer("flights"), description: "finds flights" },
      { name: "hotels", model: onServer("hotels"), description: "finds hotels" },
      { name: "itinerary", model: onServer("itinerary"), description: "writes a day-by-day itinerary" },
    ],
    limits: { followUpWindowSeconds: 0 },
  };
  const node = (id: string, agent: string, objective: string, dependsOn: string[]) => ({ id, agent, objective, dependsOn });
  const cyclic = { nodes: [node("f", "flights", "Find flights", ["h"]), node("h", "hotels", "Find a hotel", ["f"])] };
  const plan = {
    nodes: [
      node("f", "flights", "Find flights from San Francisco to Paris in June", []),
      node("h", "hotels", "Find a hotel in Paris for three nights", []),
      node("i", "itinerary", "Write the 3-day itinerary", ["f", "h"]),
    ],
  };

  it("repairs a cyclic plan, runs two nodes at once and the dependent one on both their results", async () => {
    llm.scriptFor("planner", [call("return", cyclic), call("return", plan)]);
    // Both researchers answer slowly, so both requests are in flight at once whatever order they arrive in.
    llm.scriptFor("flights", [{ content: "UA990 on 3 June, 840 USD", delayMs: 400 }]);
    llm.scriptFor("hotels", [{ content: "Hotel Lutetia, 3 nights, 1200 EUR", delayMs: 400 }]);
    llm.scriptFor("itinerary", [{ content: "Day 1 Louvre, day 2 Orsay, day 3 Versailles" }]);
    const { runId } = await h.engine.startRun({ graph: tripGraph, task: "Plan a 3-day trip to Paris in June from San Francisco" });
    const summary = await waitForStatus(h.engine, runId, ["completed"], RUN_WAIT_MS);
    expect(summary.output).toBe("Day 1 Louvre, day 2 Orsay, day 3 Versailles");

    const planner = requestsOf("planner");
    expect(planner).toHaveLength(2);
    expect(userMessages(planner[1]).find((m) => m.startsWith(REPAIR_PROMPT_PREFIX)), "the planner is told its plan's cycle").toContain("cycle: f → h → f");

    const events = await h.engine.getEvents(runId);
    expect(ofType(events, "plan_proposed").map((e) => [e.attempt, e.plan.nodes.map((n) => n.id)])).toEqual([[2, ["f", "h", "i"]]]);
    const started = ofType(events, "plan_node_started");
    const finished = ofType(events, "plan_node_finished");
    const seq = (list: { nodeId: string; seq: number }[], id: string) => list.find((e) => e.nodeId === id)?.seq ?? -1;
    expect(Math.max(seq(started, "f"), seq(started, "h")), "both researchers started before either finished").toBeLessThan(Math.min(seq(finished, "f"), seq(finished, "h")));
    expect(seq(started, "i"), "the itinerary waited for both").toBeGreaterThan(Math.max(seq(finished, "f"), seq(finished, "h")));
    expect(finished.map((e) => [e.nodeId, e.status]).sort()).toEqual([
      ["f", "completed"],
      ["h", "completed"],
      ["i", "completed"],
    ]);
    expect(ofType(events, "plan_finished")[0]).toMatchObject({ outcome: "completed", completed: 3, failed: 0, skipped: 0 });

    const brief = userMessages(requestsOf("itinerary")[0]).join("\n");
    expect(brief, "the dependent node's request quotes the flight result").toContain("UA990 on 3 June, 840 USD");
    expect(brief, "and the hotel result").toContain("Hotel Lutetia, 3 nights, 1200 EUR");
    expect(brief).toContain("Write the 3-day itinerary");
    for (const researcher of ["flights", "hotels"]) {
      expect(userMessages(requestsOf(researcher)[0]).join("\n"), `${researcher} ran before any result existed`).not.toMatch(/UA990|Lutetia/);
    }
    expectScriptSpent();
  }, TEST_TIMEOUT_MS);
});
