// Where a run's history was written rather than recorded: a fork's edited tool
// result or model output is marked on its span (attributes edited, editedBy,
// editedAt, written by the engine). The trace, the conversation and the compare
// page show the same mark from here. Browser-safe and pure.
import type { EditMark } from "../contract/types";
import type { TraceSpanView } from "./schemas";

/** The edit mark a span's attributes carry, or null for a recorded or live step. */
export function spanEditMark(attributes: Record<string, unknown> | undefined): EditMark | null {
  if (attributes?.edited !== true) return null;
  const text = (value: unknown, fallback: string) => (typeof value === "string" && value ? value : fallback);
  return { by: text(attributes.editedBy, "unknown"), at: text(attributes.editedAt, "unknown time") };
}

/** The badge's hover text: who wrote the step and when, and that it is no recording. */
export function editTitle(mark: EditMark): string {
  return `Edited by ${mark.by} at ${mark.at}: not a recording`;
}

/** Which messages of one run's conversation came from edited steps. */
export interface ConversationEdits {
  /** By assistant message index: the k-th assistant message is the k-th successful model call's answer. */
  assistant: ReadonlyMap<number, EditMark>;
  /** By tool call id: the result the model read. */
  toolResults: ReadonlyMap<string, EditMark>;
}

export const NO_EDITS: ConversationEdits = { assistant: new Map(), toolResults: new Map() };

/** The edits among a run's own spans, keyed as the conversation reads its messages (as its tokens per turn are). */
export function conversationEdits(spans: readonly Pick<TraceSpanView, "kind" | "status" | "attributes">[]): ConversationEdits {
  const assistant = new Map<number, EditMark>();
  const toolResults = new Map<string, EditMark>();
  let answers = 0;
  for (const span of spans) {
    if (span.kind === "inference" && span.status === "ok") {
      const mark = spanEditMark(span.attributes);
      if (mark) assistant.set(answers, mark);
      answers++;
    } else if (span.kind === "tool") {
      const mark = spanEditMark(span.attributes);
      const callId = span.attributes?.callId;
      if (mark && typeof callId === "string") toolResults.set(callId, mark);
    }
  }
  return assistant.size || toolResults.size ? { assistant, toolResults } : NO_EDITS;
}
