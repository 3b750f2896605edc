// What the receiving agent of a handoff sees of the conversation so far
// (seed §7: the context moves with control): a summary, the last few
// messages, or the full transcript — always as text in one message, so no
// provider ever sees another agent's tool calls without their results.
import type { ChatMessage } from "../../lib/contract/types";

export interface HandoffContextInput {
  runId: string;
  /** Messages the ledger holds for the run (read up to here). */
  messageCount: number;
  /** Where the handing-off agent's own conversation started. */
  conversationStart: number;
  mode: "summary" | "recent" | "full";
  recentMessages: number;
  from: string;
}

/** The transcript may be this long; older lines go first. */
const TRANSCRIPT_MAX = 24_000;
/** One line of a summary may be this long. */
const SUMMARY_LINE_MAX = 300;

function line(message: ChatMessage, from: string): string | null {
  switch (message.role) {
    case "system":
      return null;
    case "user":
      return `user: ${message.content}`;
    case "assistant": {
      const calls = (message.tool_calls ?? []).map((c) => `${c.function.name}(${c.function.arguments})`).join(", ");
      const text = message.content ?? "";
      return `${from}: ${[text, calls ? `[calls ${calls}]` : ""].filter(Boolean).join(" ")}`;
    }
    case "tool":
      return `${message.name} → ${message.content}`;
  }
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The last lines that fit in `max` characters, oldest first, with a note when some were left out. */
function tail(lines: string[], max: number): string {
  const kept: string[] = [];
  let size = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const next = lines[i] ?? "";
    if (size + next.length > max) {
      kept.unshift(`(${i + 1} earlier lines left out)`);
      break;
    }
    kept.unshift(next);
    size += next.length + 1;
  }
  return kept.join("\n");
}

export function buildHandoffContext(all: ChatMessage[], input: HandoffContextInput): string {
  const messages = all.slice(input.conversationStart);
  const lines = messages.map((m) => line(m, input.from)).filter((l): l is string => l !== null);
  if (input.mode === "full") return `The conversation so far:\n${tail(lines, TRANSCRIPT_MAX)}`;
  if (input.mode === "recent") {
    const recent = messages.filter((m) => m.role !== "system").slice(-input.recentMessages);
    return `The last ${recent.length} messages:\n${tail(recent.map((m) => line(m, input.from) ?? ""), TRANSCRIPT_MAX)}`;
  }
  // A summary without another model call: what the user asked, what was looked up, what was said.
  const asked = messages.filter((m): m is Extract<ChatMessage, { role: "user" }> => m.role === "user").map((m) => clip(m.content, SUMMARY_LINE_MAX));
  const tools = [...new Set(messages.flatMap((m) => (m.role === "assistant" ? (m.tool_calls ?? []).map((c) => c.function.name) : [])))];
  const results = messages.filter((m): m is Extract<ChatMessage, { role: "tool" }> => m.role === "tool").slice(-3).map((m) => `${m.name} → ${clip(m.content, SUMMARY_LINE_MAX)}`);
  const said = messages.filter((m) => m.role === "assistant" && m.content).slice(-2).map((m) => clip((m as { content: string }).content, SUMMARY_LINE_MAX));
  return [
    "Summary of the conversation so far:",
    ...asked.map((a) => `- the user asked: ${a}`),
    ...(tools.length ? [`- ${input.from} used: ${tools.join(", ")}`] : []),
    ...results.map((r) => `- result: ${r}`),
    ...said.map((s) => `- ${input.from} said: ${s}`),
  ].join("\n");
}
