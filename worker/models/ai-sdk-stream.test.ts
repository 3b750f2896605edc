// Token streaming through the AI SDK over real HTTP (the scripted
// chat-completions server answers `stream: true` as OpenAI and llama-server
// do): with onText the reply's text arrives in pieces that add up to the
// returned content, tool calls and usage come back as without streaming, and a
// provider error still fails the call with its status.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChatCompletionsServer, type ChatCompletionsServer } from "../../scripts/test-support/chat-completions-server";
import { createAiSdkModel } from "./ai-sdk";
import { ModelCallError, type InferenceRequest } from "./types";

let server: ChatCompletionsServer;
beforeAll(async () => {
  server = await startChatCompletionsServer();
});
afterAll(async () => server?.close());

const request = (onText?: (delta: string) => void): InferenceRequest => ({
  model: "openai-compatible/local/smol",
  agentName: "main",
  messages: [{ role: "user", content: "Say something long." }],
  tools: [{ name: "lookup_order", description: "Finds an order", parameters: { type: "object", properties: { order_id: { type: "string" } } } }],
  temperature: 0,
  maxOutputTokens: 200,
  attempt: 1,
  ...(onText ? { onText } : {}),
});

describe("AI SDK calls with token streaming", () => {
  const compatible = () => createOpenAICompatible({ name: "local", baseURL: server.baseUrl });
  const model = () => createAiSdkModel((m) => compatible().chatModel(m));

  it("hands the text out in pieces that add up to the content, with usage", async () => {
    const content = "One two three four five six seven eight nine ten eleven twelve.";
    server.script([{ content, usage: { prompt_tokens: 20, completion_tokens: 12 } }]);
    const pieces: string[] = [];
    const response = await model().generate(request((d) => pieces.push(d)), "smol");
    expect(server.requests.at(-1)?.stream, "the call asked for a stream").toBe(true);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join("")).toBe(content);
    expect(response).toMatchObject({ content, toolCalls: [], usage: { inputTokens: 20, outputTokens: 12 }, finishReason: "stop" });
  });

  it("returns the tool calls of a streamed reply", async () => {
    server.script([{ content: null, toolCalls: [{ id: "call_1", name: "lookup_order", arguments: '{"order_id":"4417"}' }] }]);
    const response = await model().generate(request(() => undefined), "smol");
    expect(response.toolCalls).toEqual([{ id: "call_1", name: "lookup_order", arguments: '{"order_id":"4417"}' }]);
    expect(response.content).toBeNull();
  });

  it("fails a streamed call on a provider error as a generated one fails", async () => {
    server.script([{ status: 401 }]);
    const failure = await model()
      .generate(request(() => undefined), "smol")
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelCallError);
    expect((failure as ModelCallError).retryable).toBe(false);
    expect((failure as ModelCallError).message).toMatch(/401/);
  });
});
