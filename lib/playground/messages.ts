// Edits of a playground conversation and its limits, pure so the page, the
// server and the unit tests share them.
import type { ChatMessage } from "../contract/types";
import { PLAYGROUND_MAX_BYTES, PLAYGROUND_MAX_MESSAGES } from "./schemas";
import type { PlaygroundTool } from "./contract";

/** The message with new text; an assistant's tool calls, a user's images and a tool result's call id stay. */
export function withContent(message: ChatMessage, content: string): ChatMessage {
  if (message.role === "assistant") return { ...message, content: content === "" && message.tool_calls?.length ? null : content };
  return { ...message, content };
}

/** The conversation with message `index` changed to `content` (a new list; an index outside it changes nothing). */
export function editMessage(messages: readonly ChatMessage[], index: number, content: string): ChatMessage[] {
  return messages.map((m, i) => (i === index ? withContent(m, content) : m));
}

/** The conversation without message `index`. */
export function removeMessage(messages: readonly ChatMessage[], index: number): ChatMessage[] {
  return messages.filter((_, i) => i !== index);
}

/** The conversation with a user message added at the end. */
export function appendUserMessage(messages: readonly ChatMessage[], content: string): ChatMessage[] {
  return [...messages, { role: "user", content }];
}

/** The system prompt replaced (or put first when the conversation has none). */
export function withSystemPrompt(messages: readonly ChatMessage[], prompt: string): ChatMessage[] {
  const at = messages.findIndex((m) => m.role === "system");
  if (at < 0) return [{ role: "system", content: prompt }, ...messages];
  return editMessage(messages, at, prompt);
}

/** Index of the last user message, or -1. */
export function lastUserIndex(messages: readonly ChatMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === "user") return i;
  return -1;
}

/** Bytes of the call's content as UTF-8 JSON: what the 1 MB limit counts. */
export function callBytes(messages: readonly ChatMessage[], tools: readonly PlaygroundTool[]): number {
  return new TextEncoder().encode(JSON.stringify(messages)).length + new TextEncoder().encode(JSON.stringify(tools)).length;
}

/** Why the call is over a limit, in a sentence naming it, or null. */
export function limitProblem(messages: readonly ChatMessage[], tools: readonly PlaygroundTool[]): { status: 413 | 422; message: string } | null {
  if (messages.length > PLAYGROUND_MAX_MESSAGES) return { status: 422, message: `The call has ${messages.length} messages; the playground takes at most ${PLAYGROUND_MAX_MESSAGES}` };
  const bytes = callBytes(messages, tools);
  if (bytes > PLAYGROUND_MAX_BYTES) {
    return { status: 413, message: `The call's messages and tools are ${bytes.toLocaleString("en")} bytes; the playground takes at most ${PLAYGROUND_MAX_BYTES.toLocaleString("en")} (1 MB)` };
  }
  return null;
}

/**
 * The conversation cut to the playground's limit: the system prompt and the
 * newest messages, never starting on a tool result whose call was cut off.
 */
export function fitToLimit(messages: readonly ChatMessage[]): { messages: ChatMessage[]; omitted: number } {
  if (messages.length <= PLAYGROUND_MAX_MESSAGES) return { messages: [...messages], omitted: 0 };
  const head = messages[0]?.role === "system" ? [messages[0]] : [];
  let start = messages.length - (PLAYGROUND_MAX_MESSAGES - head.length);
  while (start < messages.length && messages[start]?.role === "tool") start++;
  return { messages: [...head, ...messages.slice(start)], omitted: start - head.length };
}

/**
 * The system prompt "Save as draft" stores as the agent's: the saved template
 * when the prompt the call saw was not edited (so its {{context.…}}
 * placeholders survive); otherwise the edited text without the instructions
 * the engine appends to a router's or planner's prompt (it appends them again).
 */
export function promptToSave(edited: string, rendered: string, template: string | null): string {
  if (template !== null && edited === rendered) return template;
  const appended = template !== null && rendered.startsWith(template) ? rendered.slice(template.length) : "";
  return appended && edited.endsWith(appended) ? edited.slice(0, edited.length - appended.length) : edited;
}
