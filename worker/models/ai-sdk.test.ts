// Structured output on the wire (issue 16 §1): what each provider is sent when
// the agent's answer has a schema, checked on the real providers with a fetch
// that answers like the service would. No network.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { describe, expect, it } from "vitest";
import { createAiSdkModel, isFinalCall, supportsStructuredOutput, toModelMessages } from "./ai-sdk";
import type { FunctionTool, InferenceMessage, InferenceRequest, LoadedImage } from "./types";

const ANSWER_SCHEMA = {
  type: "object",
  properties: { answer: { type: "string" }, confidence: { type: "number", minimum: 0, maximum: 1 }, note: { type: "string" } },
  required: ["answer", "confidence"],
};

/** A fetch that records each JSON request body and answers with `reply` (the provider's response JSON). */
function recordingFetch(reply: unknown) {
  const bodies: Record<string, unknown>[] = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
    return new Response(JSON.stringify(reply), { status: 200, headers: { "content-type": "application/json" } });
  };
  return { bodies, fetch: fetch as typeof globalThis.fetch };
}

const chatCompletion = (content: string) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1_700_000_000,
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
});

const LOOKUP: FunctionTool = { name: "lookup_invoice", description: "Look up an invoice", parameters: { type: "object", properties: { invoice_id: { type: "string" } }, required: ["invoice_id"] } };
/** The engine's system tools of an agent with an answer schema (lib/contract/system-tools.ts). */
const RETURN: FunctionTool = { name: "return", description: "Finish the task", parameters: ANSWER_SCHEMA };
const FAIL: FunctionTool = { name: "fail", description: "Give up", parameters: { type: "object", properties: { reason: { type: "string" } }, required: ["reason"] } };
const HANDOFF: FunctionTool = { name: "handoff", description: "Hand off", parameters: { type: "object", properties: { agent: { type: "string" } } } };
/** A typed agent's call that can only end the turn: return and fail are all it is offered. */
const FINAL_TOOLS = [RETURN, FAIL];

const JSON_SCHEMA_FORMAT = { type: "json_schema", json_schema: { name: "answer", strict: false, schema: ANSWER_SCHEMA } };

function request(overrides: Partial<InferenceRequest> = {}): InferenceRequest {
  return {
    model: "x/m",
    agentName: "triage",
    messages: [
      { role: "system", content: "Triage invoices." },
      { role: "user", content: "INV-1001?" },
    ],
    tools: [LOOKUP, RETURN, FAIL],
    temperature: 0,
    maxOutputTokens: 200,
    attempt: 1,
    ...overrides,
  };
}

describe("structured output requests", () => {
  it("OpenAI gets the answer's schema as a lenient json_schema response format on a call offered only return and fail", async () => {
    const { bodies, fetch } = recordingFetch(chatCompletion('{"answer":"rejected","confidence":0.9}'));
    const openai = createOpenAI({ apiKey: "test", fetch });
    const response = await createAiSdkModel((m) => openai.chat(m)).generate(request({ responseSchema: ANSWER_SCHEMA, tools: FINAL_TOOLS }), "gpt-test");
    expect(bodies[0]?.response_format).toEqual(JSON_SCHEMA_FORMAT);
    expect(bodies[0]?.tools, "return and fail are still offered").toHaveLength(2);
    expect(response.content, "the answer is the JSON text, for the engine to validate").toBe('{"answer":"rejected","confidence":0.9}');
    expect(response.usage).toEqual({ inputTokens: 11, outputTokens: 7 });
  });

  it("a call that offers a real tool gets no response format (a server enforcing it would never call the tool); return carries the schema", async () => {
    const { bodies, fetch } = recordingFetch(chatCompletion('{"answer":"rejected","confidence":0.9}'));
    const openai = createOpenAI({ apiKey: "test", fetch });
    await createAiSdkModel((m) => openai.chat(m)).generate(request({ responseSchema: ANSWER_SCHEMA }), "gpt-test");
    expect(bodies[0], "lookup_invoice is offered: the model must stay free to call it").not.toHaveProperty("response_format");
    const offered = (bodies[0]?.tools as { function: { name: string; parameters: unknown } }[]).map((t) => t.function);
    expect(offered.map((t) => t.name)).toEqual(["lookup_invoice", "return", "fail"]);
    expect(offered[1]?.parameters, "the return tool's parameters are the answer's schema").toMatchObject({ required: ["answer", "confidence"] });
  });

  it("handoff counts as a real tool: a call that offers it gets no response format", async () => {
    const { bodies, fetch } = recordingFetch(chatCompletion('{"answer":"ok","confidence":1}'));
    const openai = createOpenAI({ apiKey: "test", fetch });
    await createAiSdkModel((m) => openai.chat(m)).generate(request({ responseSchema: ANSWER_SCHEMA, tools: [...FINAL_TOOLS, HANDOFF] }), "gpt-test");
    expect(bodies[0]).not.toHaveProperty("response_format");
  });

  it("a final call is one whose tools are only return and fail, or none", () => {
    expect(isFinalCall([])).toBe(true);
    expect(isFinalCall([RETURN, FAIL])).toBe(true);
    expect(isFinalCall([RETURN])).toBe(true);
    expect(isFinalCall([LOOKUP, RETURN, FAIL])).toBe(false);
    expect(isFinalCall([RETURN, FAIL, HANDOFF])).toBe(false);
  });

  it("an answer that breaks the schema (or is not JSON) comes back as text for the engine's repair loop, not as an error", async () => {
    for (const content of ['{"answer":42}', "I think it was rejected."]) {
      const { fetch } = recordingFetch(chatCompletion(content));
      const openai = createOpenAI({ apiKey: "test", fetch });
      const response = await createAiSdkModel((m) => openai.chat(m)).generate(request({ responseSchema: ANSWER_SCHEMA, tools: FINAL_TOOLS }), "gpt-test");
      expect(response.content).toBe(content);
    }
  });

  it("an OpenAI-compatible server gets the schema only when it is declared to support structured outputs", async () => {
    const withSupport = recordingFetch(chatCompletion('{"answer":"ok","confidence":1}'));
    const capable = createOpenAICompatible({ name: "local", baseURL: "http://llm.test/v1", supportsStructuredOutputs: true, fetch: withSupport.fetch });
    const capableModel = createAiSdkModel((m) => capable.chatModel(m));
    await capableModel.generate(request({ responseSchema: ANSWER_SCHEMA, tools: FINAL_TOOLS }), "llama");
    expect(withSupport.bodies[0]?.response_format).toEqual(JSON_SCHEMA_FORMAT);
    await capableModel.generate(request({ responseSchema: ANSWER_SCHEMA }), "llama");
    expect(withSupport.bodies[1], "not on a call that offers lookup_invoice").not.toHaveProperty("response_format");

    const without = recordingFetch(chatCompletion('{"answer":"ok","confidence":1}'));
    const plain = createOpenAICompatible({ name: "local", baseURL: "http://llm.test/v1", fetch: without.fetch });
    const response = await createAiSdkModel((m) => plain.chatModel(m)).generate(request({ responseSchema: ANSWER_SCHEMA, tools: FINAL_TOOLS }), "llama");
    expect(without.bodies[0], "no response format at all (not even json_object, which would bar plain answers)").not.toHaveProperty("response_format");
    expect(response.content).toBe('{"answer":"ok","confidence":1}');
  });

  it("without a response schema nothing changes", async () => {
    const { bodies, fetch } = recordingFetch(chatCompletion("plain answer"));
    const openai = createOpenAI({ apiKey: "test", fetch });
    const response = await createAiSdkModel((m) => openai.chat(m)).generate(request(), "gpt-test");
    expect(bodies[0]).not.toHaveProperty("response_format");
    expect(response.content).toBe("plain answer");
  });

  it("Anthropic gets no output format: the engine's return tool and its own check carry the schema", async () => {
    const { bodies, fetch } = recordingFetch({
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-test",
      content: [{ type: "text", text: '{"answer":"ok","confidence":1}' }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 5, output_tokens: 3 },
    });
    const anthropic = createAnthropic({ apiKey: "test", fetch });
    const response = await createAiSdkModel((m) => anthropic(m)).generate(request({ responseSchema: ANSWER_SCHEMA, tools: FINAL_TOOLS }), "claude-test");
    expect(bodies[0]).not.toHaveProperty("output_format");
    expect(JSON.stringify({ ...bodies[0], tools: undefined }), "the schema travels in the return tool only").not.toContain('"confidence"');
    expect(response.content).toBe('{"answer":"ok","confidence":1}');
  });

  it("knows which models take a schema", () => {
    expect(supportsStructuredOutput(createOpenAI({ apiKey: "k" }).chat("gpt"))).toBe(true);
    expect(supportsStructuredOutput(createOpenAI({ apiKey: "k" }).responses("gpt"))).toBe(true);
    expect(supportsStructuredOutput(createOpenAICompatible({ name: "openai", baseURL: "http://x.test" }).chatModel("m")), "a compatible server named openai is still judged by its flag").toBe(false);
    expect(supportsStructuredOutput(createOpenAICompatible({ name: "local", baseURL: "http://x.test", supportsStructuredOutputs: true }).chatModel("m"))).toBe(true);
    expect(supportsStructuredOutput(createAnthropic({ apiKey: "k" })("claude"))).toBe(false);
    expect(supportsStructuredOutput("gateway/model")).toBe(false);
  });
});

describe("tool calls written as text", () => {
  const CALL_TEXT = '{"name": "lookup_invoice", "arguments": {"invoice_id": "INV-1001"}}';
  const compatible = (reply: string, options: { toolCallsInText?: boolean; supportsStructuredOutputs?: boolean } = {}) => {
    const recorded = recordingFetch(chatCompletion(reply));
    const provider = createOpenAICompatible({ name: "local", baseURL: "http://llm.test/v1", supportsStructuredOutputs: options.supportsStructuredOutputs, fetch: recorded.fetch });
    return { ...recorded, model: createAiSdkModel((m) => provider.chatModel(m), { toolCallsInText: options.toolCallsInText }) };
  };

  it("opted in, a reply that is one call of an offered tool becomes that call, marked, with a stable id", async () => {
    const { model } = compatible(CALL_TEXT, { toolCallsInText: true });
    const response = await model.generate(request(), "qwen");
    expect(response.toolCalls).toEqual([{ id: expect.stringMatching(/^text-call-[0-9a-f]{16}$/) as unknown, name: "lookup_invoice", arguments: '{"invoice_id":"INV-1001"}' }]);
    expect(response.content, "the text was the call, not an answer").toBeNull();
    expect(response.toolCallsFromText).toBe(true);
    expect(response.finishReason).toBe("tool-calls");
    const again = await model.generate(request(), "qwen");
    expect(again.toolCalls[0]?.id, "a retry of the same call gets the same id").toBe(response.toolCalls[0]?.id);
    const later = await model.generate(request({ messages: [...request().messages, { role: "user", content: "And INV-1002?" }] }), "qwen");
    expect(later.toolCalls[0]?.id, "another turn gets another id").not.toBe(response.toolCalls[0]?.id);
  });

  it("off by default: the same reply stays a text answer", async () => {
    const response = await compatible(CALL_TEXT).model.generate(request(), "qwen");
    expect(response.content).toBe(CALL_TEXT);
    expect(response.toolCalls).toEqual([]);
    expect(response).not.toHaveProperty("toolCallsFromText");
  });

  it("a call of a tool that is not offered stays a text answer", async () => {
    const response = await compatible('{"name": "delete_invoice", "arguments": {"invoice_id": "INV-1001"}}', { toolCallsInText: true }).model.generate(request(), "qwen");
    expect(response.toolCalls).toEqual([]);
    expect(response.content).toContain("delete_invoice");
  });

  it("a reply constrained to the answer's schema is the answer, even when it reads like a call", async () => {
    const text = '{"name": "return", "arguments": {"answer": "ok", "confidence": 1}}';
    const { bodies, model } = compatible(text, { toolCallsInText: true, supportsStructuredOutputs: true });
    const response = await model.generate(request({ responseSchema: ANSWER_SCHEMA, tools: FINAL_TOOLS }), "qwen");
    expect(bodies[0], "the call was constrained").toHaveProperty("response_format");
    expect(response.toolCalls).toEqual([]);
    expect(response.content).toBe(text);
  });

  it("without a response format, a written call of return is read as the return call", async () => {
    const response = await compatible('{"name": "return", "parameters": {"answer": "ok", "confidence": 1}}', { toolCallsInText: true }).model.generate(
      request({ responseSchema: ANSWER_SCHEMA }),
      "qwen",
    );
    expect(response.toolCalls).toMatchObject([{ name: "return", arguments: '{"answer":"ok","confidence":1}' }]);
  });
});

describe("images on the wire", () => {
  // The 8-byte PNG signature and a little more: the SDK passes bytes through, it does not decode them.
  const bytes = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3, 4]);
  const base64 = Buffer.from(bytes).toString("base64");
  const png: LoadedImage = { ref: { attachmentId: `img_${"b".repeat(32)}`, mediaType: "image/png", width: 2, height: 3, bytes: bytes.byteLength }, bytes, mediaType: "image/png" };
  const messages: InferenceMessage[] = [
    { role: "system", content: "Describe images." },
    { role: "user", content: "What is this?", images: [png.ref], imageData: [png] },
  ];

  it("a user message with images becomes its text and one image part per image", () => {
    expect(toModelMessages(messages)[1]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "What is this?" },
        { type: "image", image: bytes, mediaType: "image/png" },
      ],
    });
    expect(toModelMessages([{ role: "user", content: "plain" }])[0], "a message without images stays a string").toEqual({ role: "user", content: "plain" });
  });

  it("OpenAI receives the bytes as a data URL image part", async () => {
    const { bodies, fetch } = recordingFetch(chatCompletion("a picture"));
    const openai = createOpenAI({ apiKey: "test", fetch });
    await createAiSdkModel((m) => openai.chat(m)).generate(request({ messages, tools: [] }), "gpt-4o");
    const user = (bodies[0]?.messages as { role: string; content: unknown }[]).find((m) => m.role === "user");
    expect(user?.content).toEqual([
      { type: "text", text: "What is this?" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${base64}` } },
    ]);
  });

  it("Anthropic receives a base64 image block with its media type", async () => {
    const { bodies, fetch } = recordingFetch({
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-test",
      content: [{ type: "text", text: "a picture" }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 5, output_tokens: 3 },
    });
    const anthropic = createAnthropic({ apiKey: "test", fetch });
    await createAiSdkModel((m) => anthropic(m)).generate(request({ messages, tools: [] }), "claude-sonnet-4");
    const user = (bodies[0]?.messages as { role: string; content: unknown[] }[]).find((m) => m.role === "user");
    expect(user?.content).toContainEqual(expect.objectContaining({ type: "image", source: { type: "base64", media_type: "image/png", data: base64 } }));
  });
});
