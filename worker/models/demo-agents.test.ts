// The demo model driving the seeded demo agents of issue 16 in plain English:
// the tools each agent is offered are the engine's (built-ins as the executor
// describes them, plus the system tools), and tool results are stand-ins.
import { describe, expect, it } from "vitest";
import { createDemoModel } from "./demo";
import type { FunctionTool, ModelToolCall } from "./types";
import type { ChatMessage } from "../../lib/contract/types";
import { DEMO_AGENT_GRAPHS } from "../../lib/agents/demo";
import { agentGraphSchema, type AgentGraph } from "../../lib/agents/schemas";
import { answerSchemaOf, handoffPrompt, systemToolsFor } from "../../lib/contract/system-tools";
import { toFunctionParameters } from "../../lib/tools/arguments";
import { checkValue } from "../../lib/json-schema/validator";
import { findBuiltin } from "../tools/builtins";

const model = createDemoModel();

function demoGraph(name: string): AgentGraph {
  const demo = DEMO_AGENT_GRAPHS.find((d) => d.name === name);
  if (!demo) throw new Error(`no demo graph ${name}`);
  return agentGraphSchema.parse(demo.graph);
}

function toolsOf(graph: AgentGraph, agentName: string): FunctionTool[] {
  const agent = graph.agents.find((a) => a.name === agentName);
  if (!agent) throw new Error(`no agent ${agentName}`);
  const builtins = agent.tools.map((id): FunctionTool => {
    const builtin = findBuiltin(id);
    if (!builtin) throw new Error(`no built-in tool ${id}`);
    return { name: builtin.id, description: builtin.description, parameters: toFunctionParameters(builtin.schema) };
  });
  return [...builtins, ...systemToolsFor(agent, graph)];
}

/** Stand-in results, shaped as the built-ins answer. */
function resultOf(call: ModelToolCall): unknown {
  const args = JSON.parse(call.arguments) as Record<string, unknown>;
  switch (call.name) {
    case "lookup_invoice":
      return { invoice_id: args.invoice_id, status: "rejected", reason: "missing purchase order", amount_cents: 125_000, currency: "USD" };
    case "lookup_order":
      return { order_id: args.order_id, item: "4K monitor", total: 349.99, status: "delivered" };
    case "ledger_balance":
      return { account: args.account, balance: 5000 };
    default:
      return { ok: true };
  }
}

/** Runs one agent on a task until it answers in words or calls a system tool; every tool call on the way, in order. */
async function drive(graph: AgentGraph, agentName: string, task: string): Promise<{ calls: string[]; end: ModelToolCall | string }> {
  const messages: ChatMessage[] = [{ role: "system", content: "s" }, { role: "user", content: task }];
  const calls: string[] = [];
  for (let turn = 0; turn < 10; turn++) {
    const response = await model.generate({ model: `demo/${agentName}`, agentName, messages, tools: toolsOf(graph, agentName), temperature: 0, maxOutputTokens: 500, attempt: 1 }, agentName);
    const system = response.toolCalls.find((c) => ["return", "fail", "handoff"].includes(c.name));
    if (system) return { calls, end: system };
    if (response.toolCalls.length === 0) return { calls, end: response.content ?? "" };
    calls.push(...response.toolCalls.map((c) => c.name));
    messages.push({ role: "assistant", content: null, tool_calls: response.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })) });
    for (const c of response.toolCalls) messages.push({ role: "tool", tool_call_id: c.id, name: c.name, content: JSON.stringify(resultOf(c)) });
  }
  throw new Error("the agent never finished");
}

function endCall(end: ModelToolCall | string): { name: string; args: Record<string, unknown> } {
  if (typeof end === "string") throw new Error(`answered in words: ${end}`);
  return { name: end.name, args: JSON.parse(end.arguments) as Record<string, unknown> };
}

describe("demo agents in plain English", () => {
  it("invoice-triage looks the invoice up and returns typed data its schema accepts", async () => {
    const graph = demoGraph("invoice-triage");
    const { calls, end } = await drive(graph, "invoice-triage", "Why was invoice INV-1001 rejected?");
    expect(calls).toEqual(["lookup_invoice"]);
    const answer = endCall(end);
    expect(answer).toEqual({
      name: "return",
      args: { answer: "Invoice INV-1001 (1250.00 USD) is rejected: missing purchase order.", confidence: 0.9, sources: ["lookup_invoice"], action_required: false, escalation_reason: null },
    });
    const schema = answerSchemaOf(graph.agents[0]!);
    expect(schema && checkValue(schema.schema, answer.args, { strict: schema.strict })).toEqual({ ok: true, errors: [] });
  });

  it("help-desk routes billing, technical and other requests by its specialists' descriptions", async () => {
    const graph = demoGraph("help-desk");
    const route = async (task: string) => endCall((await drive(graph, "help-desk", task)).end);
    expect(await route("Why was my card charged twice this month?")).toMatchObject({ name: "return", args: { target: "billing", confidence: 0.9 } });
    expect(await route("I get an error when I try to login")).toMatchObject({ name: "return", args: { target: "technical", confidence: 0.9 } });
    expect(await route("What are your opening hours?")).toMatchObject({ name: "return", args: { target: "general", confidence: 0.9 } });
    // Nothing in common with any description: low confidence, so the router's default agent (general) takes it.
    expect(await route("Bonjour")).toMatchObject({ args: { target: "billing", confidence: 0.3 } });
    expect(graph.agents[0]?.router?.defaultAgent).toBe("general");
  });

  it("help-desk's billing specialist answers an invoice question with its own tools", async () => {
    const { calls, end } = await drive(demoGraph("help-desk"), "billing", "Why was invoice INV-1001 rejected?");
    expect(calls).toEqual(["lookup_invoice"]);
    expect(end).toBe("Invoice INV-1001 (1250.00 USD) is rejected: missing purchase order.");
  });

  it("front-desk keeps order questions, hands refunds and technical problems off", async () => {
    const graph = demoGraph("front-desk");
    expect((await drive(graph, "front-desk", "Where is my order A-1002?")).calls).toEqual(["lookup_order", "current_time"]);
    expect(endCall((await drive(graph, "front-desk", "I want a refund for order A-1003")).end)).toMatchObject({ name: "handoff", args: { agent: "refund-specialist" } });
    expect(endCall((await drive(graph, "front-desk", "The app crashes every time I open it")).end)).toMatchObject({ name: "handoff", args: { agent: "tech-support" } });
  });

  it("front-desk's refund specialist takes the handed-off task: looks the order up, checks the refunds account, pays it back", async () => {
    const task = handoffPrompt({ from: "front-desk", reason: "refund", context: "Summary: the customer wants a refund.", task: "I want a refund for order A-1003" });
    const { calls } = await drive(demoGraph("front-desk"), "refund-specialist", task);
    expect(calls).toEqual(["lookup_order", "ledger_balance", "ledger_transfer"]);
  });
});
