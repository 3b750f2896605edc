// The conversation as the run page shows it: turns opened by the user's
// messages, with the engine's own messages (repair requests, handoff briefs,
// reroutes) kept apart from the user's, and after each handoff a divider and
// the receiving agent named on its answers. Pure and browser-safe.
import type { ChatMessage, RunEvent } from "../contract/types";
import { HANDOFF_PROMPT_PREFIX, REPAIR_PROMPT_PREFIX, REROUTE_PROMPT_PREFIX } from "../contract/system-tools";

/** Why the engine wrote a message in the user's role. */
export type EnginePurpose = "repair" | "handoff" | "reroute";

export const ENGINE_PURPOSE_LABELS: Record<EnginePurpose, string> = {
  repair: "repair request",
  handoff: "handoff brief",
  reroute: "reroute request",
};

/** The engine's purpose when a user-role message is the engine's (its prompts open with known prefixes), else null. */
export function enginePurposeOf(content: string): EnginePurpose | null {
  if (content.startsWith(REPAIR_PROMPT_PREFIX)) return "repair";
  if (content.startsWith(HANDOFF_PROMPT_PREFIX)) return "handoff";
  if (content.startsWith(REROUTE_PROMPT_PREFIX)) return "reroute";
  return null;
}

/** A handoff as the conversation marks it. */
export type HandoffMark = Pick<Extract<RunEvent, { type: "handoff" }>, "from" | "to" | "reason" | "messageIndex">;

export type TurnItem =
  /** An assistant or tool message; `speaker` is the agent who was answering then; `assistantIndex` counts assistant messages (the k-th came from the k-th model call). */
  | { kind: "message"; index: number; message: ChatMessage; speaker: string; assistantIndex: number | null }
  | { kind: "engine"; index: number; purpose: EnginePurpose; content: string }
  | { kind: "handoff"; index: number; handoff: HandoffMark };

export interface Turn {
  /** The user's message that opened the turn (null when the conversation starts otherwise). */
  user: { index: number; content: string } | null;
  items: TurnItem[];
}

/** The handoff events of a run, by the message they start at (repeats of one event, by sequence number, counted once). */
export function handoffMarks(events: readonly RunEvent[]): HandoffMark[] {
  const seen = new Set<number>();
  const marks: HandoffMark[] = [];
  for (const event of events) {
    if (event.type !== "handoff" || seen.has(event.seq)) continue;
    seen.add(event.seq);
    marks.push({ from: event.from, to: event.to, reason: event.reason, messageIndex: event.messageIndex });
  }
  return marks.sort((a, b) => a.messageIndex - b.messageIndex);
}

/**
 * Splits the messages (index = position in the run's conversation) into turns.
 * `entryAgent` speaks until the first handoff; each handoff's divider stands
 * before the first shown message at or after its `messageIndex` (that index is
 * the receiving agent's system message, which is not shown).
 */
export function toTurns(messages: readonly ChatMessage[], entryAgent: string, handoffs: readonly HandoffMark[] = []): Turn[] {
  const turns: Turn[] = [];
  const pending = [...handoffs].sort((a, b) => a.messageIndex - b.messageIndex);
  let speaker = entryAgent;
  let assistants = 0;
  const current = (): Turn => {
    const last = turns.at(-1);
    if (last) return last;
    const first: Turn = { user: null, items: [] };
    turns.push(first);
    return first;
  };
  messages.forEach((message, index) => {
    if (message.role === "system") return;
    while (pending[0] && pending[0].messageIndex <= index) {
      const handoff = pending.shift() as HandoffMark;
      current().items.push({ kind: "handoff", index, handoff });
      speaker = handoff.to;
    }
    if (message.role === "user") {
      const purpose = enginePurposeOf(message.content);
      if (purpose) current().items.push({ kind: "engine", index, purpose, content: message.content });
      else turns.push({ user: { index, content: message.content }, items: [] });
      return;
    }
    current().items.push({ kind: "message", index, message, speaker, assistantIndex: message.role === "assistant" ? assistants++ : null });
  });
  return turns;
}
