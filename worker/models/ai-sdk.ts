// Real model providers through the Vercel AI SDK: OpenAI, Anthropic, and any
// OpenAI-compatible server. We only ask the model for the next step (no tool
// execution inside the SDK): the engine runs tools as Temporal activities.
import { APICallError, generateText, jsonSchema, tool, type LanguageModel, type ModelMessage, type ToolSet } from "ai";
import type { JSONSchema7 } from "@ai-sdk/provider";
import type { ChatMessage } from "../../lib/contract/types";
import { ModelCallError, type InferenceRequest, type InferenceResponse, type ModelProvider } from "./types";

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Keep malformed arguments as text: the provider echoes them back verbatim.
    return text;
  }
}

/** OpenAI chat-format history → AI SDK model messages. */
export function toModelMessages(messages: ChatMessage[]): ModelMessage[] {
  return messages.map((m): ModelMessage => {
    switch (m.role) {
      case "system":
        return { role: "system", content: m.content };
      case "user":
        return { role: "user", content: m.content };
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

/** Wraps an AI SDK language-model factory as a ModelProvider. */
export function createAiSdkModel(languageModel: (modelName: string) => LanguageModel): ModelProvider {
  return {
    async generate(request: InferenceRequest, modelName: string): Promise<InferenceResponse> {
      const tools: ToolSet = {};
      for (const t of request.tools) {
        tools[t.name] = tool({ description: t.description, inputSchema: jsonSchema(t.parameters as JSONSchema7) });
      }
      try {
        const result = await generateText({
          model: languageModel(modelName),
          messages: toModelMessages(request.messages),
          // The only system message is the agent's instructions from its saved graph, placeholders filled from the
          // launcher's context (builders and admins launch); the task, follow-ups and tool results are user and tool messages.
          allowSystemInMessages: true,
          tools: request.tools.length ? tools : undefined,
          temperature: request.temperature,
          maxOutputTokens: request.maxOutputTokens,
          maxRetries: 0, // Temporal owns retries
          abortSignal: request.signal,
        });
        return {
          content: result.text || null,
          toolCalls: result.toolCalls.map((c) => ({
            id: c.toolCallId,
            name: c.toolName,
            arguments: typeof c.input === "string" ? c.input : JSON.stringify(c.input ?? {}),
          })),
          usage: { inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 },
          finishReason: result.finishReason,
        };
      } catch (error) {
        throw classify(error);
      }
    },
  };
}
