// Tool calls written as text (issue 22 §3): small local models (Qwen2.5 0.5B
// on llama.cpp) often answer with the bare JSON of a call instead of a tool
// call. A provider that opts in (OPENAI_COMPATIBLE_TOOL_CALLS_IN_TEXT) reads
// such a reply as the call; anything else stays a text answer.
import { createHash } from "node:crypto";
import type { InferenceMessage, ModelToolCall } from "./types";

/** One ```json (or bare ```) fence around the whole reply; its body may not hold another fence. */
const FENCE = /^```(?:json)?[ \t]*\r?\n?((?:(?!```)[\s\S])*?)\r?\n?[ \t]*```$/i;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The call a reply's whole text spells out, or null when it is an answer.
 * Exactly one object `{"name": <an offered tool>, "arguments": {...}}`
 * ("parameters" accepted for "arguments"), trimmed and optionally inside one
 * ```json fence. Any other key, any text around it, several calls, an unknown
 * tool or arguments that are not an object leave it a text answer: a typed
 * answer that merely has a `name` field must never become a call.
 */
export function parseTextToolCall(text: string, offered: readonly string[]): { name: string; arguments: string } | null {
  const trimmed = text.trim();
  const body = FENCE.exec(trimmed)?.[1]?.trim() ?? trimmed;
  if (!body.startsWith("{")) return null;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  if (!isPlainObject(value)) return null;
  const keys = Object.keys(value);
  const argumentsKey = keys.find((k) => k === "arguments" || k === "parameters");
  if (keys.length !== 2 || !keys.includes("name") || !argumentsKey) return null;
  const name = value.name;
  const args = value[argumentsKey];
  if (typeof name !== "string" || !offered.includes(name) || !isPlainObject(args)) return null;
  return { name, arguments: JSON.stringify(args) };
}

/**
 * A call id that is the same on every retry of the same model call (same
 * conversation, same reply) and differs between turns, whose conversations
 * differ: the engine keys idempotency and tool results on it.
 */
export function textToolCallId(messages: readonly InferenceMessage[], text: string): string {
  const hash = createHash("sha256");
  // Image bytes are left out: the references in `images` already name them.
  for (const m of messages) hash.update(JSON.stringify(m, (key, value: unknown) => (key === "imageData" ? undefined : value))).update("\n");
  hash.update(text);
  return `text-call-${hash.digest("hex").slice(0, 16)}`;
}

/** The reply's text read as a tool call with its id, or null when it stays an answer. */
export function toolCallFromText(text: string, offered: readonly string[], messages: readonly InferenceMessage[]): ModelToolCall | null {
  const call = parseTextToolCall(text, offered);
  return call ? { id: textToolCallId(messages, text), ...call } : null;
}
