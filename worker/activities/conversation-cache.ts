// The conversations of recent model calls, kept by the worker process so the
// next call of the same run reads only what its ledger batch carries instead
// of the whole conversation from the database. A miss (another worker ran the
// last call, a restart, an eviction) falls back to the database.
import type { ChatMessage } from "../../lib/contract/types";

/** Characters a message holds (a size estimate that needs no serialising). */
function messageChars(message: ChatMessage): number {
  let chars = message.content?.length ?? 0;
  if (message.role === "assistant") for (const call of message.tool_calls ?? []) chars += call.function.name.length + call.function.arguments.length;
  // Only image references are held here (their bytes are in the image cache, worker/activities/image-loader.ts).
  if (message.role === "user") chars += (message.images?.length ?? 0) * 128;
  return chars + 64;
}

interface Entry {
  messages: ChatMessage[];
  chars: number;
}

/**
 * Keyed by workflow execution (Temporal's run id): a reset or continue-as-new
 * starts a new key, so a conversation is only ever extended, never rewritten.
 * Bounded by total characters; the least recently used conversations go first.
 */
export class ConversationCache {
  private readonly entries = new Map<string, Entry>();
  private chars = 0;

  constructor(private readonly maxChars = 32 * 1024 * 1024) {}

  /** The first `count` messages of the execution's conversation, when exactly those are held. */
  get(execution: string, count: number): ChatMessage[] | null {
    const entry = this.entries.get(execution);
    if (!entry || entry.messages.length !== count) return null;
    this.entries.delete(execution);
    this.entries.set(execution, entry);
    return entry.messages;
  }

  /** Remembers the conversation a model call saw (the caller must not change the array afterwards). */
  set(execution: string, messages: ChatMessage[]): void {
    this.delete(execution);
    const chars = messages.reduce((sum, m) => sum + messageChars(m), 0);
    if (chars > this.maxChars / 4) return;
    this.entries.set(execution, { messages, chars });
    this.chars += chars;
    for (const [key, entry] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.entries.delete(key);
      this.chars -= entry.chars;
    }
  }

  private delete(execution: string): void {
    const entry = this.entries.get(execution);
    if (!entry) return;
    this.entries.delete(execution);
    this.chars -= entry.chars;
  }
}
