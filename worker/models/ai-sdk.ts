// Real model providers through the Vercel AI SDK: OpenAI, Anthropic, and any
// OpenAI-compatible server. We only ask the model for the next step (no tool
// execution inside the SDK): the engine runs tools as Temporal activities.
import { APICallError, generateText, streamText, jsonSchema, Output, tool, type LanguageModel, type ModelMessage, type OutputInterface, type ToolSet } from "ai";
import type { JSONSchema7 } from "@ai-sdk/provider";
import { FAIL_TOOL, RETURN_TOOL } from "../../lib/contract/system-tools";
import { toolCallFromText } from "./text-tool-calls";
import { ModelCallError, type FunctionTool, type InferenceMessage, type InferenceRequest, type InferenceResponse, type ModelProvider } from "./types";

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Keep malformed arguments as text: the provider echoes them back verbatim.
    return text;
  }
}

/**
 * OpenAI chat-format history → AI SDK model messages. A user message with
 * images becomes its text followed by one image part per image (the bytes the
 * inference activity loaded, with their sniffed media type).
 */
export function toModelMessages(messages: InferenceMessage[]): ModelMessage[] {
  return messages.map((m): ModelMessage => {
    switch (m.role) {
      case "system":
        return { role: "system", content: m.content };
      case "user":
        if (!m.imageData?.length) return { role: "user", content: m.content };
        return {
          role: "user",
          content: [{ type: "text", text: m.content }, ...m.imageData.map((image) => ({ type: "image" as const, image: image.bytes, mediaType: image.mediaType }))],
        };
      case "assistant":
        return {
          role: "assistant",
          content: [
            ...(m.content ? [{ type: "text" as const, text: m.content }] : []),
            ...(m.tool_calls ?? []).map((c) => ({
              type: "tool-call" as const,
              toolCallId: c.id,
              toolName: c.function.name,
              input: parseArguments(c.function.arguments),
            })),
          ],
        };
      case "tool":
        return {
          role: "tool",
          content: [{ type: "tool-result", toolCallId: m.tool_call_id, toolName: m.name, output: { type: "text", value: m.content } }],
        };
    }
  });
}

/** Classifies provider errors: rate limits, 5xx and network problems are worth retrying; 4xx are not. */
function classify(error: unknown): ModelCallError {
  if (APICallError.isInstance(error)) {
    const status = error.statusCode ?? 0;
    const retryable = error.isRetryable || status === 429 || status >= 500 || status === 0;
    return new ModelCallError(`model provider answered ${status || "without a status"}: ${error.message}`, retryable);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelCallError(`model call failed: ${message}`, true);
}

/**
 * Whether a model takes a JSON Schema as its response format: an
 * OpenAI-compatible server says so itself (`supportsStructuredOutputs`, set
 * where the provider is created); OpenAI's own models all do. Others (Anthropic)
 * get the schema in the prompt only, through the engine's `return` tool.
 */
export function supportsStructuredOutput(model: LanguageModel): boolean {
  if (typeof model === "string") return false;
  if ("supportsStructuredOutputs" in model) return model.supportsStructuredOutputs === true;
  return model.provider.startsWith("openai.");
}

/**
 * Whether a call can only end the turn: the tools offered are the engine's
 * `return` and `fail` alone, or none. Only such a call gets the answer's
 * schema as its response format: a server that enforces the format
 * (llama.cpp's grammar) constrains every reply to it, so a call that also
 * offers real tools (or `handoff`) would never call them. Those calls rely on
 * the `return` tool, whose parameters are the same schema.
 */
export function isFinalCall(tools: readonly FunctionTool[]): boolean {
  return tools.every((t) => t.name === RETURN_TOOL || t.name === FAIL_TOOL);
}

/** The name the response format carries (OpenAI requires one; letters, digits, _ and -). */
const RESPONSE_FORMAT_NAME = "answer";

/**
 * A structured-output request for the answer's schema. The answer stays the
 * model's text: the engine validates it and, when it fails, sends a repair
 * prompt (worker/workflows), where the SDK's own check would throw a
 * NoObjectGeneratedError and lose the raw output.
 */
export function answerOutput(schema: Record<string, unknown>): OutputInterface<string, unknown> {
  const requested = Output.object({ schema: jsonSchema(schema as JSONSchema7), name: RESPONSE_FORMAT_NAME });
  return { ...requested, parseCompleteOutput: async ({ text }) => text };
}

/**
 * Provider options for a structured-output request: the schema guides the
 * model without the providers' strict mode, which refuses schemas with
 * optional fields or open objects (DD-3's lenient default); the engine
 * enforces strictness itself.
 */
const LENIENT_SCHEMA = { openai: { strictJsonSchema: false }, openaiCompatible: { strictJsonSchema: false } };

export interface AiSdkModelOptions {
  /** Read a reply whose whole text is one call of an offered tool as that call (OPENAI_COMPATIBLE_TOOL_CALLS_IN_TEXT). */
  toolCallsInText?: boolean;
}

/** What a call's result is read for, whether it was generated at once or streamed. */
interface CallResult {
  text: string;
  toolCalls: { toolCallId: string; toolName: string; input: unknown }[];
  usage: { inputTokens: number | undefined; outputTokens: number | undefined };
  finishReason: string;
}

/**
 * Reads a streamed call to its end, handing each text delta to `onText` as it
 * arrives. streamText reports a provider failure as an `error` part rather than
 * throwing (and logs it, unless given an onError: the caller's is silent): it is thrown here, so a
 * streamed call fails (and retries) as a generated one does.
 */
async function streamed(result: { fullStream: AsyncIterable<{ type: string; text?: string; error?: unknown }>; text: PromiseLike<string>; toolCalls: PromiseLike<CallResult["toolCalls"]>; totalUsage: PromiseLike<CallResult["usage"]>; finishReason: PromiseLike<string> }, onText: (delta: string) => void): Promise<CallResult> {
  for await (const part of result.fullStream) {
    if (part.type === "text-delta" && part.text) onText(part.text);
    else if (part.type === "error") throw part.error;
  }
  const [text, toolCalls, usage, finishReason] = await Promise.all([result.text, result.toolCalls, result.totalUsage, result.finishReason]);
  return { text, toolCalls, usage, finishReason };
}

/** Wraps an AI SDK language-model factory as a ModelProvider. */
export function createAiSdkModel(languageModel: (modelName: string) => LanguageModel, options: AiSdkModelOptions = {}): ModelProvider {
  return {
    async generate(request: InferenceRequest, modelName: string): Promise<InferenceResponse> {
      const tools: ToolSet = {};
      for (const t of request.tools) {
        tools[t.name] = tool({ description: t.description, inputSchema: jsonSchema(t.parameters as JSONSchema7) });
      }
      const model = languageModel(modelName);
      const structured = request.responseSchema && isFinalCall(request.tools) && supportsStructuredOutput(model) ? request.responseSchema : undefined;
      try {
        const call = {
          model,
          messages: toModelMessages(request.messages),
          // The only system message is the agent's instructions from its saved graph, placeholders filled from the
          // launcher's context (builders and admins launch); the task, follow-ups and tool results are user and tool messages.
          allowSystemInMessages: true,
          tools: request.tools.length ? tools : undefined,
          temperature: request.temperature,
          maxOutputTokens: request.maxOutputTokens,
          maxRetries: 0, // Temporal owns retries
          abortSignal: request.signal,
          ...(structured ? { output: answerOutput(structured), providerOptions: LENIENT_SCHEMA } : {}),
        };
        const result = request.onText ? await streamed(streamText({ ...call, onError: () => undefined }), request.onText) : await generateText(call);
        const usage = { inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 };
        // A reply constrained to the answer's schema is the answer, whatever it looks like.
        const textCall =
          options.toolCallsInText && !structured && result.toolCalls.length === 0 && result.text
            ? toolCallFromText(result.text, request.tools.map((t) => t.name), request.messages)
            : null;
        if (textCall) return { content: null, toolCalls: [textCall], usage, finishReason: "tool-calls", toolCallsFromText: true };
        return {
          content: result.text || null,
          toolCalls: result.toolCalls.map((c) => ({
            id: c.toolCallId,
            name: c.toolName,
            arguments: typeof c.input === "string" ? c.input : JSON.stringify(c.input ?? {}),
          })),
          usage,
          finishReason: result.finishReason,
        };
      } catch (error) {
        throw classify(error);
      }
    },
  };
}
