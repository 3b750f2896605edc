"use client";
// Details of the selected span, fetched on demand: timing, tokens, cost and
// attempts, then what it did — the messages sent to the model and its output,
// tool arguments and result, a sub-agent turn, an approval decision.
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import type { ChatMessage, RunEvent } from "@/lib/contract/types";
import type { TraceSpanView } from "@/lib/runs/schemas";
import { formatCost } from "@/lib/runs/pricing";
import { Payload } from "@/components/runs/payload";
import { formatDuration } from "@/components/runs/usage";
import { KIND_LABELS, waitNote } from "./colors";
import { useNow } from "@/components/runs/use-now";
import { getJson } from "@/lib/http/client";

interface SpanDetailsBody {
  span: TraceSpanView;
  events: RunEvent[];
  input: ChatMessage[] | null;
  output: ChatMessage | null;
  inputOmitted: number;
}

function MessageView({ message }: { message: ChatMessage }) {
  const text = message.role === "tool" ? message.content : message.content ?? "";
  return (
    <div className="space-y-1">
      <p className="text-[11px] font-semibold uppercase tracking-wide text-zinc-500">
        {message.role}
        {message.role === "tool" ? ` · ${message.name}` : ""}
      </p>
      {text ? <Payload text={text} label={message.role === "tool" ? "result" : "text"} /> : null}
      {message.role === "assistant" && message.tool_calls?.length
        ? message.tool_calls.map((call) => <Payload key={call.id} text={call.function.arguments} label={`call ${call.function.name}`} />)
        : null}
    </div>
  );
}

function EventView({ event }: { event: RunEvent }) {
  switch (event.type) {
    case "tool_call_started":
      return <Payload text={event.arguments} label="arguments" />;
    case "tool_call_completed":
      return <Payload text={event.result} label={`result (${event.outcome}, ${event.attempts} attempt${event.attempts === 1 ? "" : "s"})`} />;
    case "error":
      return <Payload text={event.message} label={`error (${event.kind})`} />;
    case "sub_agent_message":
      return <Payload text={event.message} label={`message to ${event.agentName} (turn ${event.turn})`} />;
    case "sub_agent_reply":
      return <Payload text={event.response} label={`reply from ${event.agentName}`} />;
    case "approval_requested":
      return <Payload text={JSON.stringify(event.approval.arguments)} label={`approval requested for ${event.approval.toolName}`} />;
    case "approval_decided":
      return <Payload text={`${event.status}${event.decidedBy ? ` by ${event.decidedBy}` : ""}${event.reason ? `: ${event.reason}` : ""}`} label="decision" />;
    default:
      return null;
  }
}

export function SpanDetails({ runId, spanId, onClose, onZoomTo }: { runId: string; spanId: string; onClose: () => void; onZoomTo: (span: TraceSpanView) => void }) {
  const now = useNow();
  const details = useQuery({
    queryKey: ["span", runId, spanId],
    queryFn: () => getJson<SpanDetailsBody>(`/api/runs/${encodeURIComponent(runId)}/spans/${encodeURIComponent(spanId)}`),
    refetchInterval: (q) => (q.state.data?.span.status === "running" ? 1000 : false),
  });
  const data = details.data;
  const span = data?.span;
  return (
    <aside aria-label="Span details" data-testid="span-details" className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm">
      <div className="flex items-start justify-between gap-2">
        <div>
          <p className="text-xs text-zinc-500">{span ? KIND_LABELS[span.kind] : "span"}</p>
          <h3 className="font-semibold text-zinc-900">{span?.name ?? spanId}</h3>
        </div>
        <div className="flex gap-2 text-xs">
          {span ? (
            <button type="button" className="text-indigo-600 hover:underline" onClick={() => onZoomTo(span)}>
              Zoom to span
            </button>
          ) : null}
          <button type="button" className="text-zinc-500 hover:text-zinc-900" onClick={onClose} aria-label="Close details">
            ✕
          </button>
        </div>
      </div>
      {details.error ? <p className="text-red-600">{details.error.message}</p> : null}
      {span ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
          <dt className="text-zinc-500">status</dt>
          <dd data-testid="span-status">{span.status}</dd>
          {waitNote(span) ? (
            <>
              <dt className="text-zinc-500">wait</dt>
              <dd data-testid="span-wait">{waitNote(span)}</dd>
            </>
          ) : null}
          <dt className="text-zinc-500">started</dt>
          <dd>{new Date(span.startMs).toLocaleTimeString()}</dd>
          <dt className="text-zinc-500">duration</dt>
          <dd>{formatDuration((span.endMs ?? now) - span.startMs)}</dd>
          {span.tokens ? (
            <>
              <dt className="text-zinc-500">tokens</dt>
              <dd>
                {span.tokens.inputTokens.toLocaleString("en-US")} in · {span.tokens.outputTokens.toLocaleString("en-US")} out
              </dd>
            </>
          ) : null}
          {span.cost !== undefined ? (
            <>
              <dt className="text-zinc-500">cost</dt>
              <dd>{formatCost(span.cost)}</dd>
            </>
          ) : null}
          {span.attempts !== undefined ? (
            <>
              <dt className="text-zinc-500">attempts</dt>
              <dd data-testid="span-attempts">
                {span.attempts}
                {span.attempts > 1 ? ` (${span.attempts - 1} retried by Temporal)` : ""}
              </dd>
            </>
          ) : null}
          {typeof span.attributes?.retryReason === "string" ? (
            <>
              <dt className="text-zinc-500">retried because</dt>
              <dd data-testid="span-retry-reason" className="break-words text-amber-800">
                {span.attributes.retryReason}
              </dd>
            </>
          ) : null}
          {Object.entries(span.attributes ?? {})
            .filter(([key]) => key !== "retryReason")
            .map(([key, value]) => (
              <FragmentRow key={key} name={key} value={String(value)} />
            ))}
        </dl>
      ) : null}
      {span?.kind === "sub_agent" && typeof span.attributes?.conversationId === "string" ? (
        <Link className="text-xs text-indigo-600 hover:underline" href={`/runs/${encodeURIComponent(span.attributes.conversationId)}`}>
          Open the sub-run {span.attributes.conversationId}
        </Link>
      ) : null}
      {data?.events.map((event) => (
        <EventView key={event.seq} event={event} />
      ))}
      {data?.input ? (
        <details>
          <summary className="cursor-pointer text-xs font-medium text-zinc-700">
            Messages sent to the model ({data.input.length}
            {data.inputOmitted ? ` of ${data.input.length + data.inputOmitted}` : ""})
          </summary>
          <div className="mt-2 space-y-2">
            {data.input.map((message, i) => (
              <MessageView key={i} message={message} />
            ))}
          </div>
        </details>
      ) : null}
      {data?.output ? (
        <div>
          <p className="mb-1 text-xs font-medium text-zinc-700">Model output</p>
          <MessageView message={data.output} />
        </div>
      ) : null}
    </aside>
  );
}

function FragmentRow({ name, value }: { name: string; value: string }) {
  return (
    <>
      <dt className="text-zinc-500">{name}</dt>
      <dd className="break-all">{value}</dd>
    </>
  );
}
