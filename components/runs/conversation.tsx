"use client";
// The conversation as turns: the user's message, then the assistant's messages,
// each tool call with its result beneath it. Sub-agent replies link to the
// sub-run. After a handoff a divider names who took over and why, and the
// answers after it carry the receiving agent's name; the engine's own messages
// (repair requests, handoff briefs) read as the engine's, not the user's.
// Tokens per turn come from the run's model calls (the k-th successful
// inference produced the k-th assistant message). Everything renders as text;
// a user's images show as thumbnails served by our own origin, each opening the
// original in a new tab. A call a person decided shows its result as "Result
// after approval" (who, when), set apart from what the model said before it
// asked: a run that read balances, then moved money, must not read as if
// nothing moved. An answer or a tool result a person wrote into a fork (an
// edited step) carries an "edited by" badge, as in the trace: it was never
// said or returned by anything that ran; one a taped run reused from the
// recording reads "replayed" (never both).
import { useMemo, useRef, useState } from "react";
import Link from "@/components/ui/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ChatMessage, TokenUsage } from "@/lib/contract/types";
import { getJson } from "@/lib/http/client";
import { ENGINE_PURPOSE_LABELS, toTurns, type HandoffMark, type TurnItem } from "@/lib/runs/conversation-turns";
import { handoffLine } from "@/lib/runs/orchestration-view";
import { Payload } from "./payload";
import { MessageImages } from "@/components/attachments/message-images";
import { DecidedResultBlock, useRunDecisions } from "@/components/inbox/decided-result";
import type { DecidedCall } from "@/lib/inbox/schemas";
import type { LiveCall } from "@/lib/runs/stream-events";
import { NO_EDITS, type ConversationEdits } from "@/lib/runs/edit-marks";
import { REPLAYED_TITLE } from "@/lib/runs/span-attributes";
import { EditedBadge } from "./edited-badge";

function subRunOf(content: string): { id: string; agent: string } | null {
  try {
    const reply = JSON.parse(content) as { conversation_id?: unknown; agent_name?: unknown };
    return typeof reply.conversation_id === "string" ? { id: reply.conversation_id, agent: String(reply.agent_name ?? "sub-agent") } : null;
  } catch {
    return null;
  }
}

/**
 * `eventSeq` is the last ledger event the page has seen. It is part of the
 * query key, so every move starts a fetch of its own: a `refetch()` while the
 * first fetch is still in flight joins that fetch instead, and when the run
 * ended meanwhile (polling stops at a terminal status) the last turn stayed
 * half-shown. Fetches may finish out of order; one that would shorten the
 * conversation is dropped.
 */
export function Conversation({
  runId,
  live,
  eventSeq,
  inferenceTokens,
  entryAgent,
  handoffs,
  streaming = false,
  liveCall = null,
  edits = NO_EDITS,
}: {
  runId: string;
  live: boolean;
  /** The run stream is open: `eventSeq` moves with every event, so no poll is needed. */
  streaming?: boolean;
  /** The model call whose text is arriving: shown growing until its message is in the conversation. */
  liveCall?: LiveCall | null;
  eventSeq: number;
  inferenceTokens: readonly TokenUsage[];
  /** Who answers until the first handoff. */
  entryAgent: string;
  handoffs: readonly HandoffMark[];
  /** The answers and tool results that came from a fork's edited steps (from the run's spans). */
  edits?: ConversationEdits;
}) {
  const [textOnly, setTextOnly] = useState(false);
  const held = useRef(0);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const query = useQuery({
    queryKey: ["run-messages", runId, eventSeq],
    // Only messages after the ones the page holds are fetched.
    queryFn: async () => {
      const from = held.current;
      const page = await getJson<{ messages: { index: number; message: ChatMessage }[] }>(`/api/runs/${encodeURIComponent(runId)}/messages?from=${from}`);
      const fresh = page.messages.filter((m, i) => m.index === from + i).map((m) => m.message);
      if (from + fresh.length > held.current) {
        held.current = from + fresh.length;
        setMessages((prev) => [...prev.slice(0, from), ...fresh]);
      }
      return held.current;
    },
    placeholderData: keepPreviousData,
    refetchInterval: live && !streaming ? 1500 : false,
  });
  // The streamed text shows until the message it became is read (or the run is over and everything is read).
  const growing = liveCall && live && liveCall.text && !messages.some((m) => m.role === "assistant" && m.content === liveCall.text) ? liveCall : null;
  const turns = useMemo(() => toTurns(messages, entryAgent, handoffs), [messages, entryAgent, handoffs]);
  const decisionsQuery = useRunDecisions(runId, { live, version: eventSeq });
  const decisions = useMemo(() => new Map((decisionsQuery.data ?? []).map((d) => [d.toolCallId, d])), [decisionsQuery.data]);
  // Answers are named by agent only where more than one agent speaks.
  const nameSpeakers = handoffs.length > 0;
  const results = useMemo(() => {
    const map = new Map<string, Extract<ChatMessage, { role: "tool" }>>();
    for (const m of messages) if (m.role === "tool") map.set(m.tool_call_id, m);
    return map;
  }, [messages]);

  return (
    <section aria-label="Conversation" className="space-y-4">
      <label className="flex items-center gap-2 text-sm text-zinc-700">
        <input type="checkbox" checked={textOnly} onChange={(e) => setTextOnly(e.target.checked)} /> Text only
      </label>
      {query.error ? <p className="text-sm text-red-600">{query.error.message}</p> : null}
      {turns.map((turn, i) => {
        const tokens = turn.items.reduce(
          (sum, item) => {
            const t = item.kind === "message" && item.assistantIndex !== null ? inferenceTokens[item.assistantIndex] : undefined;
            return t ? { inputTokens: sum.inputTokens + t.inputTokens, outputTokens: sum.outputTokens + t.outputTokens } : sum;
          },
          { inputTokens: 0, outputTokens: 0 },
        );
        return (
          <article key={i} data-testid="turn" className="space-y-2 rounded-lg border border-zinc-200 bg-white p-4">
            <header className="flex justify-between text-xs text-zinc-500">
              <span>Turn {i + 1}</span>
              <span data-testid="turn-tokens">
                {(tokens.inputTokens + tokens.outputTokens).toLocaleString("en-US")} tokens ({tokens.inputTokens.toLocaleString("en-US")} in · {tokens.outputTokens.toLocaleString("en-US")} out)
              </span>
            </header>
            {turn.user ? (
              <div className="rounded-md bg-indigo-50 p-2" data-testid="user-message">
                <p className="text-[11px] font-semibold uppercase text-indigo-700">user</p>
                <p className="whitespace-pre-wrap text-sm text-zinc-900">{turn.user.content}</p>
                <MessageImages images={imagesOf(messages[turn.user.index])} />
              </div>
            ) : null}
            {turn.items.map((item) => (
              <TurnItemView key={item.kind === "handoff" ? `handoff-${item.index}-${item.handoff.to}` : item.index} item={item} results={results} decisions={decisions} edits={edits} textOnly={textOnly} nameSpeakers={nameSpeakers} />
            ))}
          </article>
        );
      })}
      {growing ? (
        <div data-testid="assistant-streaming" aria-live="polite" aria-busy={!growing.done} className="rounded-lg border border-dashed border-indigo-300 bg-white p-4">
          <p className="text-[11px] font-semibold uppercase text-zinc-500">assistant{nameSpeakers ? ` · ${growing.agentName}` : ""} · {growing.done ? "done, saving…" : "writing…"}</p>
          <p className="whitespace-pre-wrap text-sm text-zinc-900">{growing.text}</p>
        </div>
      ) : null}
      {!query.isPending && turns.length === 0 && !growing ? <p className="text-sm text-zinc-500">No messages yet.</p> : null}
    </section>
  );
}

/** A taped run's answer or tool result reused from the recording, as the trace marks it. */
function ReplayedBadge({ className }: { className?: string }) {
  return (
    <span data-testid="conversation-replayed" title={REPLAYED_TITLE} className={`rounded bg-sky-100 px-1.5 py-0.5 text-xs font-normal text-sky-800 ${className ?? ""}`}>
      replayed
    </span>
  );
}

function imagesOf(message: ChatMessage | undefined) {
  return message?.role === "user" ? (message.images ?? []) : [];
}

type ToolResults = ReadonlyMap<string, Extract<ChatMessage, { role: "tool" }>>;
type Decisions = ReadonlyMap<string, DecidedCall>;

function TurnItemView({ item, results, decisions, edits, textOnly, nameSpeakers }: { item: TurnItem; results: ToolResults; decisions: Decisions; edits: ConversationEdits; textOnly: boolean; nameSpeakers: boolean }) {
  if (item.kind === "handoff") {
    return (
      <div role="separator" aria-label={`handoff ${handoffLine(item.handoff)}`} data-testid="handoff-divider" className="flex items-center gap-2 py-1 text-xs text-orange-800">
        <span className="h-px flex-1 bg-orange-200" />
        <span className="max-w-[80%] break-words text-center">{handoffLine(item.handoff)}</span>
        <span className="h-px flex-1 bg-orange-200" />
      </div>
    );
  }
  if (item.kind === "engine") {
    return (
      <details data-testid="engine-message" data-purpose={item.purpose} className="rounded-md border border-dashed border-zinc-300 bg-zinc-50 p-2">
        <summary className="cursor-pointer text-[11px] font-semibold uppercase text-zinc-600">engine · {ENGINE_PURPOSE_LABELS[item.purpose]}</summary>
        <p className="mt-1 whitespace-pre-wrap text-xs text-zinc-800">{item.content}</p>
      </details>
    );
  }
  const { message } = item;
  if (message.role !== "assistant") return null; // tool results show under their call
  const decided = message.tool_calls?.map((c) => decisions.get(c.id)).filter((d): d is DecidedCall => d !== undefined) ?? [];
  const answerEdit = item.assistantIndex !== null ? edits.assistant.get(item.assistantIndex) : undefined;
  return (
    <div className="space-y-2" data-testid="assistant-message" data-speaker={item.speaker}>
      {message.content ? (
        <div data-testid="assistant-text">
          <p className="text-[11px] font-semibold uppercase text-zinc-500">
            {nameSpeakers ? `assistant · ${item.speaker}` : "assistant"}
            {answerEdit ? <EditedBadge mark={answerEdit} testId="conversation-edited" className="ml-2 normal-case" /> : null}
            {!answerEdit && item.assistantIndex !== null && edits.replayedAnswers.has(item.assistantIndex) ? <ReplayedBadge className="ml-2 normal-case" /> : null}
          </p>
          <p className="whitespace-pre-wrap text-sm text-zinc-900">{message.content}</p>
          {decided.length ? (
            <p className="mt-1 text-[11px] text-zinc-500" data-testid="said-before-decision">
              written before the decision on {[...new Set(decided.map((d) => d.toolName))].join(", ")}; what was done is below
            </p>
          ) : null}
        </div>
      ) : nameSpeakers && message.tool_calls?.length ? (
        <p className="text-[11px] font-semibold uppercase text-zinc-500">assistant · {item.speaker}</p>
      ) : null}
      {!textOnly
        ? message.tool_calls?.map((call) => {
            const result = results.get(call.id);
            const decision = decisions.get(call.id);
            const sub = result && call.function.name === "message_agent" ? subRunOf(result.content) : null;
            const resultEdit = edits.toolResults.get(call.id);
            return (
              <div key={call.id} data-testid="tool-call" className="ml-4 space-y-1 border-l-2 border-sky-200 pl-3">
                <p className="text-xs font-medium text-sky-800">
                  → {call.function.name}
                  {resultEdit ? <EditedBadge mark={resultEdit} testId="conversation-edited" className="ml-2" /> : null}
                  {!resultEdit && edits.replayedResults.has(call.id) ? <ReplayedBadge className="ml-2" /> : null}
                </p>
                <Payload text={call.function.arguments} label="arguments" />
                {decision ? (
                  <DecidedResultBlock decision={result ? { ...decision, result: result.content } : decision} />
                ) : result ? (
                  <Payload text={result.content} label="result" />
                ) : (
                  <p className="text-xs text-zinc-500">waiting for the result…</p>
                )}
                {sub ? (
                  <Link className="text-xs text-indigo-600 hover:underline" href={`/runs/${encodeURIComponent(sub.id)}`}>
                    Open {sub.agent}’s conversation
                  </Link>
                ) : null}
              </div>
            );
          })
        : // Text only still says what a decided call did: it is part of the story, not a payload detail.
          decided.map((decision) => {
            const result = results.get(decision.toolCallId);
            return <DecidedResultBlock key={decision.approvalId} decision={result ? { ...decision, result: result.content } : decision} />;
          })}
    </div>
  );
}
