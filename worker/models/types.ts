import type { ChatMessage, TokenUsage } from "../../lib/contract/types";
import type { ImageMediaType, ImageRef } from "../../lib/attachments/schemas";

/** A function the model may call: name, description and JSON-schema parameters. */
export interface FunctionTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** An image of a user message with its bytes, loaded by the inference activity for this call only (never returned or stored). */
export interface LoadedImage {
  ref: ImageRef;
  bytes: Uint8Array;
  mediaType: ImageMediaType;
}

/** A user message as a model call sees it: `imageData` holds the bytes of its `images`, in order. */
export type InferenceUserMessage = Extract<ChatMessage, { role: "user" }> & { imageData?: LoadedImage[] };
/** A message of a model call: the conversation's, with the images of user messages loaded. */
export type InferenceMessage = Exclude<ChatMessage, { role: "user" }> | InferenceUserMessage;

export interface InferenceRequest {
  /** Full model id, e.g. `demo/assistant` or `openai-compatible/local/llama3`. */
  model: string;
  agentName: string;
  messages: InferenceMessage[];
  tools: FunctionTool[];
  temperature: number;
  maxOutputTokens: number;
  /**
   * The JSON Schema the final answer must match, when the agent has one: sent
   * as the provider's structured-output request where it supports one, on calls
   * that offer no tools but `return` and `fail` (the engine validates the answer
   * itself either way).
   */
  responseSchema?: Record<string, unknown>;
  /** 1 on the first try; retries count up (the demo model uses it to simulate flaky providers). */
  attempt: number;
  signal?: AbortSignal;
  /**
   * Receives the reply's text as it is generated, piece by piece (token
   * streaming; the whole text is still returned as `content`). Providers that
   * cannot stream ignore it.
   */
  onText?: (delta: string) => void;
}

export interface ModelToolCall {
  id: string;
  name: string;
  /** The raw argument text as the model produced it (may be malformed JSON). */
  arguments: string;
}

export interface InferenceResponse {
  content: string | null;
  toolCalls: ModelToolCall[];
  usage: TokenUsage;
  finishReason: string;
  /**
   * Set when the model wrote its tool call as text and the provider read it as
   * one (OPENAI_COMPATIBLE_TOOL_CALLS_IN_TEXT): `toolCalls` then holds that
   * call and `content` is null. For the trace.
   */
  toolCallsFromText?: true;
}

/** Turns messages into a response. Implementations: the demo model and the AI SDK providers. */
export interface ModelProvider {
  generate(request: InferenceRequest, modelName: string): Promise<InferenceResponse>;
}

/** A model failure; `retryable` ones (network, 5xx, rate limits) are retried by Temporal. */
export class ModelCallError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "ModelCallError";
  }
}
