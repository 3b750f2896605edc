// The OpenAI-compatible provider (Vercel AI SDK) against a local server that
// speaks the chat-completions protocol, tool calls included. The provider is
// configured as for llama.cpp: structured outputs on, tool calls read from text.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eventually, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { startChatCompletionsServer, type ChatCompletionsServer } from "../../scripts/test-support/chat-completions-server";
import type { RunEvent } from "../../lib/contract/types";

let h: EngineHarness;
let llm: ChatCompletionsServer;
beforeAll(async () => {
  llm = await startChatCompletionsServer();
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

const graph = singleAgentGraph({ model: "openai-compatible/local/scripted-1", tools: ["calculator"], systemPrompt: "Be exact." });

const ANSWER_SCHEMA = { type: "object", properties: { product: { type: "number" } }, required: ["product"] };
const typedGraph = (tools: string[]) => singleAgentGraph({ model: "openai-compatible/local/scripted-1", tools, systemPrompt: "Be exact.", outputSchema: { schema: ANSWER_SCHEMA } });

interface RecordedRequest {
  response_format?: { type: string; json_schema?: { schema: unknown } };
  tools?: { function: { name: string } }[];
  messages: { role: string; content?: string | null; tool_call_id?: string; tool_calls?: { id: string; function: { name: string; arguments: string } }[] }[];
}
const recorded = () => llm.requests as unknown as RecordedRequest[];
const offered = (r: RecordedRequest | undefined) => (r?.tools ?? []).map((t) => t.function.name);
const toolCallsCompleted = (events: RunEvent[]) => events.filter((e): e is Extract<RunEvent, { type: "tool_call_completed" }> => e.type === "tool_call_completed");

describe("OpenAI-compatible provider", () => {
  it("runs tool calls the server asks for, including a malformed one, and sends results back", async () => {
    llm.script([
      {
        toolCalls: [
          { id: "call_a", name: "calculator", arguments: '{"expression":"6*7"}' },
          { id: "call_b", name: "calculator", arguments: "{expression: oops" },
        ],
        usage: { prompt_tokens: 50, completion_tokens: 20 },
      },
      { content: "The answer is 42.", usage: { prompt_tokens: 90, completion_tokens: 6 } },
    ]);
    const { runId } = await h.engine.startRun({ graph, task: "What is six times seven?" });
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    expect(summary.output).toBe("The answer is 42.");
    expect(summary.usage).toEqual({ inputTokens: 140, outputTokens: 26 });

    expect(llm.requests).toHaveLength(2);
    const first = llm.requests[0] as { model: string; messages: { role: string }[]; tools: { function: { name: string; parameters: unknown } }[] };
    expect(first.model).toBe("scripted-1");
    expect(first.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(first.tools[0]?.function).toMatchObject({ name: "calculator", parameters: { type: "object", required: ["expression"] } });

    const second = llm.requests[1] as { messages: { role: string; tool_call_id?: string; content?: string; tool_calls?: unknown[] }[] };
    expect(second.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool"]);
    expect(second.messages[2]?.tool_calls).toHaveLength(2);
    expect(second.messages[3]).toMatchObject({ tool_call_id: "call_a" });
    expect(JSON.parse(second.messages[3]?.content ?? "{}")).toEqual({ expression: "6*7", result: 42 });
    expect(second.messages[4]).toMatchObject({ tool_call_id: "call_b" });
    expect(second.messages[4]?.content).toMatch(/not valid JSON/);
  });

  it("a typed agent with a tool gets no response format while it may call the tool, and calls it", async () => {
    // `constrained`: what llama.cpp would make the model say if the request forced the answer's schema.
    llm.script([
      { toolCalls: [{ id: "call_calc", name: "calculator", arguments: '{"expression":"6*7"}' }], constrained: '{"product":41}' },
      { toolCalls: [{ id: "call_ret", name: "return", arguments: '{"product":42}' }], constrained: '{"product":41}' },
    ]);
    const { runId } = await h.engine.startRun({ graph: typedGraph(["calculator"]), task: "What is six times seven?" });
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    expect(summary.outputData, "the answer came through return, after the tool ran").toEqual({ product: 42 });

    expect(recorded()).toHaveLength(2);
    for (const [i, request] of recorded().entries()) {
      expect(offered(request), `request ${i + 1} offers the tool beside return and fail`).toEqual(["calculator", "return", "fail"]);
      expect(request, `request ${i + 1} offers calculator: no response format, which would bar tool calls`).not.toHaveProperty("response_format");
    }
    const calls = toolCallsCompleted(await h.engine.getEvents(runId));
    expect(calls.map((c) => [c.tool, c.outcome])).toContainEqual(["calculator", "ok"]);
    expect(JSON.parse(recorded()[1]?.messages.find((m) => m.tool_call_id === "call_calc")?.content ?? "{}")).toEqual({ expression: "6*7", result: 42 });
  });

  it("a typed agent without tools gets the answer's schema as its response format: its calls can only answer", async () => {
    llm.script([{ content: '{"product":42}' }]);
    const { runId } = await h.engine.startRun({ graph: typedGraph([]), task: "What is six times seven?" });
    expect((await waitForStatus(h.engine, runId, ["completed"])).outputData).toEqual({ product: 42 });
    expect(recorded()).toHaveLength(1);
    expect(offered(recorded()[0])).toEqual(["return", "fail"]);
    expect(recorded()[0]?.response_format).toMatchObject({ type: "json_schema", json_schema: { schema: ANSWER_SCHEMA } });
  });

  it("a tool call the model wrote as text runs as that call (OPENAI_COMPATIBLE_TOOL_CALLS_IN_TEXT)", async () => {
    llm.script([{ content: '```json\n{"name": "calculator", "arguments": {"expression": "6*7"}}\n```' }, { content: "The answer is 42." }]);
    const { runId } = await h.engine.startRun({ graph, task: "What is six times seven?" });
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    expect(summary.output, "the written call was not taken for the answer").toBe("The answer is 42.");

    const calls = toolCallsCompleted(await h.engine.getEvents(runId));
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ tool: "calculator", outcome: "ok", callId: expect.stringMatching(/^text-call-[0-9a-f]{16}$/) as unknown });
    const second = recorded()[1];
    expect(second?.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(second?.messages[2]?.tool_calls, "the history holds the call, as if the model had made it").toEqual([
      { id: calls[0]?.callId, type: "function", function: { name: "calculator", arguments: '{"expression":"6*7"}' } },
    ]);
    expect(second?.messages[3]?.tool_call_id).toBe(calls[0]?.callId);
    expect(JSON.parse(second?.messages[3]?.content ?? "{}")).toEqual({ expression: "6*7", result: 42 });
  });

  it("retries a 500 and fails for good on a 401 with model_error", async () => {
    llm.script([{ status: 500 }, { content: "recovered" }]);
    const { runId } = await h.engine.startRun({ graph, task: "hello" });
    expect((await waitForStatus(h.engine, runId, ["completed"], 30_000)).output).toBe("recovered");
    const inference = (await h.engine.getEvents(runId)).find((e): e is Extract<RunEvent, { type: "inference_completed" }> => e.type === "inference_completed");
    expect(inference?.attempts).toBe(2);

    llm.script([{ status: 401 }]);
    const failing = await h.engine.startRun({ graph, task: "hello again" });
    const summary = await waitForStatus(h.engine, failing.runId, ["failed"]);
    expect(summary.error?.reason).toBe("model_error");
    expect(summary.error?.message).toMatch(/401/);
  });

  it("a slow model call does not hold the run: a cancel lands at once and the HTTP request is abandoned", async () => {
    llm.script([{ content: "too late", delayMs: 60_000 }]);
    const { runId } = await h.engine.startRun({ graph, task: "take your time" });
    await eventually(() => h.engine.getRun(runId), (s) => s.status === "thinking", 15_000, "the model call to start");
    await eventually(async () => llm.requests.length, (n) => n > 0, 15_000, "the request to reach the model server");
    const asked = Date.now();
    await h.engine.cancelRun(runId);
    expect((await waitForStatus(h.engine, runId, ["cancelled"], 15_000)).status).toBe("cancelled");
    // A local activity would have held the workflow task: the cancel would wait for its 8 s heartbeat.
    expect(Date.now() - asked).toBeLessThan(5_000);
    await eventually(async () => llm.abandoned(), (n) => n === 1, 15_000, "the worker to abort the model request");
  });
});
