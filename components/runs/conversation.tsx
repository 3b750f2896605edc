"use client";
// The conversation as turns: the user's message, then the assistant's messages,
// each tool call with its result beneath it. Sub-agent replies link to the
// sub-run. Tokens per turn come from the run's model calls (the k-th successful
// inference produced the k-th assistant message). Everything renders as text.
import { useMemo, useRef, useState } from "react";
import Link from "next/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ChatMessage, TokenUsage } from "@/lib/contract/types";
import { getJson } from "@/lib/http/client";
import { Payload } from "./payload";

interface Turn {
  user: ChatMessage | null;
  messages: { message: ChatMessage; assistantIndex: number | null }[];
}

function toTurns(messages: ChatMessage[]): Turn[] {
  const turns: Turn[] = [];
  let assistants = 0;
  for (const message of messages) {
    if (message.role === "system") continue;
    if (message.role === "user" || turns.length === 0) turns.push({ user: message.role === "user" ? message : null, messages: [] });
    if (message.role === "user") continue;
    turns.at(-1)?.messages.push({ message, assistantIndex: message.role === "assistant" ? assistants++ : null });
  }
  return turns;
}

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
export function Conversation({ runId, live, eventSeq, inferenceTokens }: { runId: string; live: boolean; eventSeq: number; inferenceTokens: readonly TokenUsage[] }) {
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
    refetchInterval: live ? 1500 : false,
  });
  const turns = useMemo(() => toTurns(messages), [messages]);
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
        const tokens = turn.messages.reduce(
          (sum, { assistantIndex }) => {
            const t = assistantIndex !== null ? inferenceTokens[assistantIndex] : undefined;
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
            {turn.user?.role === "user" ? (
              <div className="rounded-md bg-indigo-50 p-2">
                <p className="text-[11px] font-semibold uppercase text-indigo-700">user</p>
                <p className="whitespace-pre-wrap text-sm text-zinc-900">{turn.user.content}</p>
              </div>
            ) : null}
            {turn.messages.map(({ message }, j) => {
              if (message.role === "tool") return null; // shown under its call
              if (message.role !== "assistant") return null;
              return (
                <div key={j} className="space-y-2">
                  {message.content ? (
                    <div data-testid="assistant-text">
                      <p className="text-[11px] font-semibold uppercase text-zinc-500">assistant</p>
                      <p className="whitespace-pre-wrap text-sm text-zinc-900">{message.content}</p>
                    </div>
                  ) : null}
                  {!textOnly
                    ? message.tool_calls?.map((call) => {
                        const result = results.get(call.id);
                        const sub = result && call.function.name === "message_agent" ? subRunOf(result.content) : null;
                        return (
                          <div key={call.id} data-testid="tool-call" className="ml-4 space-y-1 border-l-2 border-sky-200 pl-3">
                            <p className="text-xs font-medium text-sky-800">→ {call.function.name}</p>
                            <Payload text={call.function.arguments} label="arguments" />
                            {result ? <Payload text={result.content} label="result" /> : <p className="text-xs text-zinc-500">waiting for the result…</p>}
                            {sub ? (
                              <Link className="text-xs text-indigo-600 hover:underline" href={`/runs/${encodeURIComponent(sub.id)}`}>
                                Open {sub.agent}’s conversation
                              </Link>
                            ) : null}
                          </div>
                        );
                      })
                    : null}
                </div>
              );
            })}
          </article>
        );
      })}
      {!query.isPending && turns.length === 0 ? <p className="text-sm text-zinc-500">No messages yet.</p> : null}
    </section>
  );
}
