// The demo model in issue 16's orchestration modes: typed answers and their
// repairs, routers, handoffs and the directives that script each of them.
import { describe, expect, it } from "vitest";
import { createDemoModel } from "./demo";
import type { FunctionTool, InferenceResponse } from "./types";
import type { ChatMessage } from "../../lib/contract/types";
import { agentGraphSchema, type AgentGraphInput } from "../../lib/agents/schemas";
import { handoffPrompt, repairPrompt, reroutePrompt, systemToolsFor } from "../../lib/contract/system-tools";
import { checkValue } from "../../lib/json-schema/validator";

const model = createDemoModel();

const triageSchema = {
  type: "object",
  properties: {
    answer: { type: "string" },
    confidence: { type: "number", minimum: 0, maximum: 1 },
    sources: { type: "array", items: { type: "string" } },
    action_required: { type: "boolean" },
    escalation_reason: { type: ["string", "null"] },
  },
  required: ["answer", "confidence", "sources", "action_required"],
};

const graph = agentGraphSchema.parse({
  entryAgent: "desk",
  agents: [
    { name: "desk", kind: "router", subAgents: ["billing", "technical", "general"], router: { defaultAgent: "general" } },
    { name: "billing", description: "Invoices, refunds, charges and payment questions." },
    { name: "technical", description: "Errors, login problems, outages and bugs." },
    { name: "general", description: "Everything else: opening hours, accounts, feedback." },
    { name: "triage", outputSchema: { schema: triageSchema }, tools: ["lookup_order"] },
    { name: "front", description: "Front desk: order status, and passes refund requests on.", tools: ["lookup_order", "current_time"], handoffs: ["refunds", "support"] },
    { name: "refunds", description: "Refund requests: checks the refund policy and pays refunds back.", tools: ["lookup_order"], handoffs: ["front"] },
    { name: "support", description: "Technical problems: login errors, crashes and outages." },
  ],
} satisfies AgentGraphInput);

const own = (name: string, description: string): FunctionTool => ({ name, description, parameters: { type: "object", properties: {} } });
const OWN_TOOLS: Record<string, FunctionTool[]> = {
  triage: [own("lookup_order", "Looks up a demo customer order by id")],
  front: [own("lookup_order", "Looks up a demo customer order by id"), own("current_time", "The current date and time")],
  refunds: [own("lookup_order", "Looks up a demo customer order by id")],
};

/** What the engine offers `agentName`: its own tools and its system tools. */
function toolsOf(agentName: string): FunctionTool[] {
  const agent = graph.agents.find((a) => a.name === agentName);
  if (!agent) throw new Error(`no agent ${agentName}`);
  return [...(OWN_TOOLS[agentName] ?? []), ...systemToolsFor(agent, graph)];
}

const generate = (agentName: string, messages: ChatMessage[], tools = toolsOf(agentName)): Promise<InferenceResponse> =>
  model.generate({ model: `demo/${agentName}`, agentName, messages, tools, temperature: 0, maxOutputTokens: 100, attempt: 1 }, agentName);

/** The single call a response makes, with its arguments parsed. */
function onlyCall(response: InferenceResponse): { name: string; args: unknown } {
  expect(response.toolCalls, JSON.stringify(response)).toHaveLength(1);
  const call = response.toolCalls[0]!;
  return { name: call.name, args: JSON.parse(call.arguments) as unknown };
}

/** The conversation after `response`'s calls, each answered with `result`. */
function answered(messages: ChatMessage[], response: InferenceResponse, result: (name: string) => string): ChatMessage[] {
  return [
    ...messages,
    { role: "assistant", content: null, tool_calls: response.toolCalls.map((c) => ({ id: c.id, type: "function" as const, function: { name: c.name, arguments: c.arguments } })) },
    ...response.toolCalls.map((c): ChatMessage => ({ role: "tool", tool_call_id: c.id, name: c.name, content: result(c.name) })),
  ];
}

const task = (content: string): ChatMessage[] => [{ role: "system", content: "s" }, { role: "user", content }];
const repair = (schema: Record<string, unknown>): ChatMessage => ({ role: "user", content: repairPrompt(["(root) must have required property 'answer'"], "{}", schema) });

describe("demo model: typed answers", () => {
  it("plans its tool calls, then returns data synthesised from the schema", async () => {
    const messages = task("Where is order A-1002?");
    const lookup = await generate("triage", messages);
    expect(onlyCall(lookup)).toEqual({ name: "lookup_order", args: { order_id: "A-1002" } });
    const after = answered(messages, lookup, () => JSON.stringify({ order_id: "A-1002", item: "desk", total: 10, status: "shipped" }));
    const final = onlyCall(await generate("triage", after));
    expect(final).toEqual({
      name: "return",
      args: { answer: "Order A-1002 (desk, $10) is shipped.", confidence: 0.9, sources: ["lookup_order"], action_required: false, escalation_reason: null },
    });
    expect(checkValue(triageSchema, final.args).ok).toBe(true);
  });

  it("ends a script without an answer directive by returning, the script's answer as the answer", async () => {
    const final = onlyCall(await generate("triage", task("think 0\nanswer: scripted")));
    expect(final.name).toBe("return");
    expect(final.args).toMatchObject({ answer: "scripted", sources: [] });
  });

  it("answers invalidly as often as `invalid N` says, counted by repair prompts, then validly", async () => {
    const messages = task("invalid 2\nanswer: fixed");
    const first = await generate("triage", messages);
    expect(onlyCall(first)).toEqual({ name: "return", args: {} });
    const once = [...answered(messages, first, () => "invalid"), repair(triageSchema)];
    expect(onlyCall(await generate("triage", once)).args).toEqual({});
    const twice = [...answered(once, first, () => "invalid"), repair(triageSchema)];
    const valid = onlyCall(await generate("triage", twice));
    expect(valid.args).toMatchObject({ answer: "fixed", confidence: 0.9 });
    expect(checkValue(triageSchema, valid.args).ok).toBe(true);
  });

  it("answers validly after a repair prompt without `invalid` (the repair is not the task)", async () => {
    const messages = [...task("Where is order A-1002?"), { role: "assistant" as const, content: "not json" }, repair(triageSchema)];
    const response = await generate("triage", messages);
    expect(onlyCall(response)).toEqual({ name: "lookup_order", args: { order_id: "A-1002" } });
  });

  it("passes `return <json>` through verbatim, malformed too, and again after a repair", async () => {
    const messages = task('return {"answer": 5');
    const first = await generate("triage", messages);
    expect(first.toolCalls[0]).toMatchObject({ name: "return", arguments: '{"answer": 5' });
    const again = await generate("triage", [...answered(messages, first, () => "invalid"), repair(triageSchema)]);
    expect(again.toolCalls[0]).toMatchObject({ name: "return", arguments: '{"answer": 5' });
  });

  it("gives up with `fail: <reason>` after its tool steps", async () => {
    const messages = task('tool lookup_order {"order_id":"A-1001"}\nfail: no such order');
    const step = await generate("triage", messages);
    expect(onlyCall(step).name).toBe("lookup_order");
    expect(onlyCall(await generate("triage", answered(messages, step, () => "{}")))).toEqual({ name: "fail", args: { reason: "no such order" } });
  });

  it("answers in words when the agent holds no return tool", async () => {
    const response = await generate("general", task("answer: plain"));
    expect(response).toMatchObject({ content: "plain", toolCalls: [] });
  });
});

describe("demo model: routers", () => {
  it("routes by a route directive, with its fallback", async () => {
    expect(onlyCall(await generate("desk", task("route technical 0.55 fallback general\nMy screen is blank")))).toEqual({
      name: "return",
      args: { target: "technical", confidence: 0.55, reason: "demo route", fallback: "general" },
    });
  });

  it("routes plain English to the child whose description shares the most words", async () => {
    expect(onlyCall(await generate("desk", task("I was charged twice on my last invoice")))).toEqual({
      name: "return",
      args: { target: "billing", confidence: 0.9, reason: "the task mentions charged, invoice" },
    });
    expect(onlyCall(await generate("desk", task("Login fails with an error since this morning"))).args).toMatchObject({ target: "technical", confidence: 0.9 });
  });

  it("sends a task no description matches to the first child at low confidence and no fallback", async () => {
    expect(onlyCall(await generate("desk", task("Bonjour!"))).args).toEqual({ target: "billing", confidence: 0.3, reason: "no agent's description matches the task" });
  });

  it("after a reroute prompt, picks among the agents still on offer", async () => {
    const messages = task("My login shows an error\n@technical: fail model");
    const first = await generate("desk", messages);
    expect(onlyCall(first).args).toMatchObject({ target: "technical" });
    const rerouted = [...answered(messages, first, () => "routed"), { role: "user" as const, content: reroutePrompt("technical", "the model failed", ["billing", "general"]) }];
    expect(onlyCall(await generate("desk", rerouted)).args).toMatchObject({ target: "billing", confidence: 0.3 });
    const scripted = task("route technical 0.9\nroute general 0.8\nMy login shows an error");
    const second = [...answered(scripted, first, () => "routed"), { role: "user" as const, content: reroutePrompt("technical", "failed", ["billing", "general"]) }];
    expect(onlyCall(await generate("desk", second)).args).toEqual({ target: "general", confidence: 0.8, reason: "demo route" });
  });

  it("makes the router's first answers invalid with `invalid N`, then routes", async () => {
    const messages = task("invalid 1\nroute billing 0.9");
    const first = await generate("desk", messages);
    expect(onlyCall(first)).toEqual({ name: "return", args: {} });
    const decision = routingSchemaOf("desk");
    expect(onlyCall(await generate("desk", [...answered(messages, first, () => "invalid"), repair(decision)])).args).toMatchObject({ target: "billing" });
  });

  it("children ignore route lines and lines scoped to other agents, and obey their own", async () => {
    const message = "route technical 0.9\n@billing: answer: not mine\n@technical: fail model\nMy login shows an error";
    expect(await generate("general", task(message), [])).toMatchObject({ content: "general received: " + message, toolCalls: [] });
    await expect(generate("technical", task(message), [])).rejects.toMatchObject({ retryable: false });
    expect(await generate("billing", task(message), [])).toMatchObject({ content: "not mine" });
  });
});

function routingSchemaOf(name: string): Record<string, unknown> {
  const tool = toolsOf(name).find((t) => t.name === "return");
  if (!tool) throw new Error("no return tool");
  return tool.parameters;
}

describe("demo model: handoffs", () => {
  it("hands a task off by directive, and the receiver ignores the line naming itself", async () => {
    const line = "handoff refunds: the customer wants money back\nanswer: refunded";
    expect(onlyCall(await generate("front", task(line)))).toEqual({ name: "handoff", args: { agent: "refunds", reason: "the customer wants money back" } });
    const received = task(handoffPrompt({ from: "front", reason: "money back", context: "Summary: a refund.", task: line }));
    expect(await generate("refunds", received)).toMatchObject({ content: "refunded", toolCalls: [] });
  });

  it("hands plain English off when another agent's description fits better than its own tools", async () => {
    expect(onlyCall(await generate("front", task("I want a refund, the policy says I can")))).toEqual({
      name: "handoff",
      args: { agent: "refunds", reason: "refunds handles refund, policy" },
    });
    expect(onlyCall(await generate("front", task("The app crashes at login"))).args).toMatchObject({ agent: "support" });
  });

  it("keeps a task its own tools fit as well, and plans it", async () => {
    const response = await generate("front", task("Where is order A-1002?"));
    expect(response.toolCalls.map((c) => c.name)).toEqual(["lookup_order", "current_time"]);
  });

  it("reads the task inside a handoff prompt, and never hands it back to the sender", async () => {
    const received = task(handoffPrompt({ from: "front", reason: "refund", context: "Summary: front asked.", task: "Refund order A-1003, the policy allows it" }));
    expect(onlyCall(await generate("refunds", received))).toEqual({ name: "lookup_order", args: { order_id: "A-1003" } });
  });
});
