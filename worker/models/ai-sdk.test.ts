// Structured output on the wire (issue 16 §1): what each provider is sent when
// the agent's answer has a schema, checked on the real providers with a fetch
// that answers like the service would. No network.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { describe, expect, it } from "vitest";
import { createAiSdkModel, supportsStructuredOutput, toModelMessages } from "./ai-sdk";
import type { InferenceMessage, InferenceRequest, LoadedImage } from "./types";

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

function request(overrides: Partial<InferenceRequest> = {}): InferenceRequest {
  return {
    model: "x/m",
    agentName: "triage",
    messages: [
      { role: "system", content: "Triage invoices." },
      { role: "user", content: "INV-1001?" },
    ],
    tools: [{ name: "lookup_invoice", description: "Look up an invoice", parameters: { type: "object", properties: { invoice_id: { type: "string" } }, required: ["invoice_id"] } }],
    temperature: 0,
    maxOutputTokens: 200,
    attempt: 1,
    ...overrides,
  };
}

describe("structured output requests", () => {
  it("OpenAI gets the answer's schema as a json_schema response format, lenient, beside the tools", async () => {
    const { bodies, fetch } = recordingFetch(chatCompletion('{"answer":"rejected","confidence":0.9}'));
    const openai = createOpenAI({ apiKey: "test", fetch });
    const response = await createAiSdkModel((m) => openai.chat(m)).generate(request({ responseSchema: ANSWER_SCHEMA }), "gpt-test");
    expect(bodies[0]?.response_format).toEqual({ type: "json_schema", json_schema: { name: "answer", strict: false, schema: ANSWER_SCHEMA } });
    expect(bodies[0]?.tools, "the tools are still offered").toHaveLength(1);
    expect(response.content, "the answer is the JSON text, for the engine to validate").toBe('{"answer":"rejected","confidence":0.9}');
    expect(response.usage).toEqual({ inputTokens: 11, outputTokens: 7 });
  });

  it("an answer that breaks the schema (or is not JSON) comes back as text for the engine's repair loop, not as an error", async () => {
    for (const content of ['{"answer":42}', "I think it was rejected."]) {
      const { fetch } = recordingFetch(chatCompletion(content));
      const openai = createOpenAI({ apiKey: "test", fetch });
      const response = await createAiSdkModel((m) => openai.chat(m)).generate(request({ responseSchema: ANSWER_SCHEMA }), "gpt-test");
      expect(response.content).toBe(content);
    }
  });

  it("an OpenAI-compatible server gets the schema only when it is declared to support structured outputs", async () => {
    const withSupport = recordingFetch(chatCompletion('{"answer":"ok","confidence":1}'));
    const capable = createOpenAICompatible({ name: "local", baseURL: "http://llm.test/v1", supportsStructuredOutputs: true, fetch: withSupport.fetch });
    await createAiSdkModel((m) => capable.chatModel(m)).generate(request({ responseSchema: ANSWER_SCHEMA }), "llama");
    expect(withSupport.bodies[0]?.response_format).toEqual({ type: "json_schema", json_schema: { name: "answer", strict: false, schema: ANSWER_SCHEMA } });

    const without = recordingFetch(chatCompletion('{"answer":"ok","confidence":1}'));
    const plain = createOpenAICompatible({ name: "local", baseURL: "http://llm.test/v1", fetch: without.fetch });
    const response = await createAiSdkModel((m) => plain.chatModel(m)).generate(request({ responseSchema: ANSWER_SCHEMA }), "llama");
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
    const response = await createAiSdkModel((m) => anthropic(m)).generate(request({ responseSchema: ANSWER_SCHEMA }), "claude-test");
    expect(bodies[0]).not.toHaveProperty("output_format");
    expect(JSON.stringify(bodies[0])).not.toContain('"confidence"');
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
