// Where a run's history was written rather than recorded: a fork's edited tool
// result or model output is marked on its span (attributes edited, editedBy,
// editedAt, written by the engine), a step reused from the recording by
// `replayed`. The trace, the conversation and the compare page show the same
// marks from here (span-attributes.ts words them). Browser-safe and pure.
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

/** Which messages of one run's conversation came from a taped run's steps: written by someone (edited), or reused from the recording (replayed). */
export interface ConversationEdits {
  /** By assistant message index: the k-th assistant message is the k-th successful model call's answer. */
  assistant: ReadonlyMap<number, EditMark>;
  /** By tool call id: the result the model read. */
  toolResults: ReadonlyMap<string, EditMark>;
  /** Answers reused from the recording (by assistant message index), never one that was edited. */
  replayedAnswers: ReadonlySet<number>;
  /** Tool results reused from the recording (by call id), never one that was edited. */
  replayedResults: ReadonlySet<string>;
}

export const NO_EDITS: ConversationEdits = { assistant: new Map(), toolResults: new Map(), replayedAnswers: new Set(), replayedResults: new Set() };

/** The edited and the replayed steps among a run's own spans, keyed as the conversation reads its messages (as its tokens per turn are). */
export function conversationEdits(spans: readonly Pick<TraceSpanView, "kind" | "status" | "attributes">[]): ConversationEdits {
  const assistant = new Map<number, EditMark>();
  const toolResults = new Map<string, EditMark>();
  const replayedAnswers = new Set<number>();
  const replayedResults = new Set<string>();
  let answers = 0;
  for (const span of spans) {
    // An edit wins over the replayed flag: a written step never reads as a recording.
    const mark = spanEditMark(span.attributes);
    const replayed = !mark && span.attributes?.replayed === true;
    if (span.kind === "inference" && span.status === "ok") {
      if (mark) assistant.set(answers, mark);
      else if (replayed) replayedAnswers.add(answers);
      answers++;
    } else if (span.kind === "tool") {
      const callId = span.attributes?.callId;
      if (typeof callId !== "string") continue;
      if (mark) toolResults.set(callId, mark);
      else if (replayed) replayedResults.add(callId);
    }
  }
  return assistant.size || toolResults.size || replayedAnswers.size || replayedResults.size ? { assistant, toolResults, replayedAnswers, replayedResults } : NO_EDITS;
}
