import { describe, expect, it } from "vitest";
import { parseDemoScript } from "./demo-script";
import { createDemoModel } from "./demo";
import type { ChatMessage } from "../../lib/contract/types";
import { handoffPrompt, repairPrompt, reroutePrompt } from "../../lib/contract/system-tools";

describe("demo script", () => {
  it("parses parallel steps, repeats and settings", () => {
    const script = parseDemoScript(
      ['tool calculator {"expression":"1"} && message billing: hi there', "repeat 2 tool current_time {}", "reply billing: again", "answer: ok", "think 50", "tokens 9", "flaky 1"].join("\n"),
    );
    expect(script.steps.map((s) => s.map((a) => a.kind))).toEqual([["tool", "message"], ["tool"], ["tool"], ["reply"]]);
    expect(script.steps[0]?.[1]).toEqual({ kind: "message", agent: "billing", text: "hi there" });
    expect(script).toMatchObject({ answer: "ok", thinkMs: 50, outputTokens: 9, flakyAttempts: 1, failModel: false, hasDirectives: true });
  });

  it("keeps raw (malformed) arguments verbatim", () => {
    expect(parseDemoScript("tool calculator raw:{oops").steps[0]?.[0]).toEqual({ kind: "tool", name: "calculator", rawArguments: "{oops" });
  });

  it("treats plain text as a message without directives", () => {
    expect(parseDemoScript("What is the refund policy?")).toMatchObject({ hasDirectives: false, prose: "What is the refund policy?" });
  });

  it("parses the orchestration directives", () => {
    const script = parseDemoScript(["route billing 0.8 fallback general", "route technical .5", 'return {"a": 1', "invalid 2", "handoff refunds: money back", "fail: cannot"].join("\n"));
    expect(script).toMatchObject({
      routes: [
        { target: "billing", confidence: 0.8, fallback: "general" },
        { target: "technical", confidence: 0.5, fallback: null },
      ],
      returnArguments: '{"a": 1',
      invalidAnswers: 2,
      handoff: { agent: "refunds", reason: "money back" },
      failReason: "cannot",
      failModel: false,
      hasDirectives: true,
      prose: "",
    });
    expect(parseDemoScript("return raw:not json").returnArguments).toBe("not json");
  });

  it("counts route lines and handoffs to the reader itself as no directives, and keeps them out of the prose", () => {
    expect(parseDemoScript("route billing 0.9\nI was charged twice")).toMatchObject({ hasDirectives: false, prose: "I was charged twice", routes: [{ target: "billing" }] });
    expect(parseDemoScript("handoff refunds: money\nRefund me", "refunds")).toMatchObject({ hasDirectives: false, handoff: null, prose: "Refund me" });
  });

  it("applies @<agent>: lines to that agent only", () => {
    const message = "@technical: fail model\n@billing: answer: paid\nMy login fails";
    expect(parseDemoScript(message, "technical")).toMatchObject({ failModel: true, answer: null, hasDirectives: true, prose: "My login fails" });
    expect(parseDemoScript(message, "billing")).toMatchObject({ failModel: false, answer: "paid" });
    expect(parseDemoScript(message, "general")).toMatchObject({ failModel: false, answer: null, hasDirectives: false, prose: "My login fails" });
    expect(parseDemoScript(message)).toMatchObject({ hasDirectives: false });
  });

  it("leaves English that merely starts like a directive as prose", () => {
    expect(parseDemoScript("Return my parcel please\nroute 66 is closed\nfail to see why")).toMatchObject({ hasDirectives: false, routes: [], returnArguments: null });
  });
});

describe("demo model", () => {
  const model = createDemoModel();
  const request = (messages: ChatMessage[]) => ({ model: "demo/x", agentName: "helper", messages, tools: [], temperature: 0, maxOutputTokens: 100, attempt: 1 });

  it("walks through the steps, then answers with the tool results", async () => {
    const task: ChatMessage[] = [{ role: "system", content: "s" }, { role: "user", content: 'tool calculator {"expression":"2"}' }];
    const first = await model.generate(request(task), "x");
    expect(first.toolCalls).toEqual([{ id: "call_1_0_0", name: "calculator", arguments: '{"expression":"2"}' }]);
    const after: ChatMessage[] = [
      ...task,
      { role: "assistant", content: null, tool_calls: [{ id: "call_1_0_0", type: "function", function: { name: "calculator", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "call_1_0_0", name: "calculator", content: '{"result":2}' },
    ];
    const second = await model.generate(request(after), "x");
    expect(second.toolCalls).toEqual([]);
    expect(second.content).toBe('Done. Results:\ncalculator: {"result":2}');
    expect(second.usage.inputTokens).toBeGreaterThan(first.usage.inputTokens);
  });

  it("continues the latest conversation with an agent by its id", async () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "message billing: a" },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "message_agent", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "c1", name: "message_agent", content: JSON.stringify({ conversation_id: "conv-9", agent_name: "billing", response: "r", is_complete: false }) },
      { role: "user", content: "reply billing: b" },
    ];
    const response = await model.generate(request(messages), "x");
    expect(JSON.parse(response.toolCalls[0]?.arguments ?? "{}")).toEqual({ conversation_id: "conv-9", message: "b" });
  });

  it("takes the latest user message that is not a repair or reroute prompt as its task", async () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "answer: first" },
      { role: "user", content: "answer: second" },
      { role: "assistant", content: "second" },
      { role: "user", content: repairPrompt(["(root) must be object"], "second", { type: "object" }) },
      { role: "user", content: reroutePrompt("billing", "failed", ["general"]) },
    ];
    expect((await model.generate(request(messages), "x")).content).toBe("second");
  });

  it("finds the task inside a handoff prompt", async () => {
    const messages: ChatMessage[] = [{ role: "user", content: handoffPrompt({ from: "front", reason: "r", context: "answer: from the context", task: "answer: the task" }) }];
    expect((await model.generate(request(messages), "x")).content).toBe("the task");
  });

  it("fails on request, retryably or not", async () => {
    await expect(model.generate(request([{ role: "user", content: "fail model" }]), "x")).rejects.toMatchObject({ retryable: false });
    await expect(model.generate(request([{ role: "user", content: "flaky 1" }]), "x")).rejects.toMatchObject({ retryable: true });
  });
});
