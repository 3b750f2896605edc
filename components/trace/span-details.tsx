"use client";
// Details of the selected span, fetched on demand: timing, tokens, cost and
// attempts, then what it did — the messages sent to the model and its output,
// tool arguments and result, a sub-agent turn, an approval decision, a routing
// decision, a handoff, an answer its schema rejected.
import { ForkFromHere } from "@/components/forks/fork-from-here";
import Link from "@/components/ui/link";
import { useQuery } from "@tanstack/react-query";
import type { ChatMessage, RunEvent } from "@/lib/contract/types";
import type { TraceSpanView } from "@/lib/runs/schemas";
import { subRunIdOf } from "@/lib/runs/timeline";
import { formatCost, formatCount, formatDuration } from "@/lib/format/figures";
import { stepDurationMs } from "@/lib/runs/step-duration";
import { DateTime } from "@/components/ui/date-time";
import { Payload } from "@/components/runs/payload";
import { EditedBadge } from "@/components/runs/edited-badge";
import { attributeRows, REPLAYED_TITLE, spanProvenance } from "@/lib/runs/span-attributes";
import { KIND_LABELS, waitNote } from "./colors";
import { handoffFacts, outputInvalidOutcome, repeatsEvent, routingFacts, validationNote, type Fact } from "@/lib/runs/orchestration-view";
import { useNow } from "@/components/runs/use-now";
import { getJson } from "@/lib/http/client";
import { plural } from "@/lib/text/plural";
import { FeedbackWidget } from "@/components/feedback/feedback-widget";
import { playgroundHref } from "@/components/playground/playground-link";
import type { LiveOutput } from "@/lib/runs/live-call";

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

function Facts({ facts, testId, title }: { facts: Fact[]; testId: string; title: string }) {
  return (
    <div data-testid={testId} className="rounded-md border border-zinc-200 p-2">
      <p className="mb-1 text-xs font-medium text-zinc-700">{title}</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
        {facts.map((fact) => (
          <FactRow key={fact.label} fact={fact} />
        ))}
      </dl>
    </div>
  );
}

function FactRow({ fact }: { fact: Fact }) {
  return (
    <>
      <dt className="text-zinc-500">{fact.label}</dt>
      <dd data-fact={fact.label} className={`break-words ${fact.emphasis ? "font-medium text-amber-800" : ""}`}>
        {fact.value}
      </dd>
    </>
  );
}

function EventView({ event }: { event: RunEvent }) {
  switch (event.type) {
    case "routing_decided":
      return <Facts testId="routing-decision" title={`routing decision by ${event.decision.router}`} facts={routingFacts(event.decision)} />;
    case "routed_agent_failed":
      return (
        <div data-testid="routed-agent-failed">
          <Payload text={event.reason} label={`${event.agentName} failed (attempt ${event.attempt}); the router decides again`} />
        </div>
      );
    case "handoff":
      return <Facts testId="handoff" title={`handoff ${event.from} → ${event.to}`} facts={handoffFacts(event)} />;
    case "output_invalid":
      return (
        <div data-testid="output-invalid" className="rounded-md border border-red-200 bg-red-50/50 p-2 text-xs">
          <p className="font-medium text-red-800">
            Answer failed its schema (iteration {event.iteration}, attempt {event.attempt})
          </p>
          <ul className="mt-1 list-disc pl-4 text-red-900">
            {event.errors.map((error, i) => (
              <li key={i} className="break-words">
                {error}
              </li>
            ))}
          </ul>
          <p data-testid="output-invalid-outcome" className="mt-1 text-zinc-700">
            {outputInvalidOutcome(event)}
          </p>
        </div>
      );
    case "tool_call_started":
      return <Payload text={event.arguments} label="arguments" />;
    case "tool_call_completed":
      return <Payload text={event.result} label={`result (${event.outcome}, ${plural(event.attempts, "attempt")})`} />;
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

export function SpanDetails({ runId, spanId, live = null, onClose, onZoomTo }: {
  runId: string;
  spanId: string;
  /** This span is the model call being written: its text so far and estimated tokens, from the run stream. */
  live?: LiveOutput | null;
  onClose: () => void;
  onZoomTo: (span: TraceSpanView) => void;
}) {
  const now = useNow();
  const details = useQuery({
    queryKey: ["span", runId, spanId],
    queryFn: () => getJson<SpanDetailsBody>(`/api/runs/${encodeURIComponent(runId)}/spans/${encodeURIComponent(spanId)}`),
    refetchInterval: (q) => (q.state.data?.span.status === "running" ? 1000 : false),
  });
  const data = details.data;
  const span = data?.span;
  const validation = span ? validationNote(span.attributes) : null;
  const subRun = span ? subRunIdOf(span) : null;
  const provenance = spanProvenance(span?.attributes);
  return (
    <aside aria-label="Span details" data-testid="span-details" className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm">
      <div className="flex items-start justify-between gap-2">
        <div>
          <p className="text-xs text-zinc-500">{span ? KIND_LABELS[span.kind] : "span"}</p>
          <h3 className="font-semibold text-zinc-900">
            {span?.name ?? spanId}
            {/* A taped run (fork, experiment) reused this step's recorded result (it cost nothing), or took what someone wrote: never both. */}
            {provenance?.kind === "replayed" ? (
              <span data-testid="span-replayed" title={REPLAYED_TITLE} className="ml-2 rounded bg-sky-100 px-1.5 py-0.5 text-xs font-normal text-sky-800">
                replayed
              </span>
            ) : null}
            {provenance?.kind === "edited" ? <EditedBadge mark={provenance.mark} testId="span-edited" className="ml-2" /> : null}
          </h3>
        </div>
        <div className="flex gap-2 text-xs">
          {span ? <ForkFromHere runId={runId} spanId={spanId} /> : null}
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
          <dd>
            <DateTime value={span.startMs} />
          </dd>
          <dt className="text-zinc-500">duration</dt>
          <dd data-testid="span-duration">{formatDuration(stepDurationMs(span, now))}</dd>
          {span.tokens ? (
            <>
              <dt className="text-zinc-500">tokens</dt>
              <dd>
                {formatCount(span.tokens.inputTokens)} in · {formatCount(span.tokens.outputTokens)} out
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
          {validation ? (
            <>
              <dt className="text-zinc-500">validation</dt>
              <dd data-testid="span-validation" className={validation.ok ? "text-emerald-700" : "text-red-700"}>
                {validation.text}
              </dd>
            </>
          ) : null}
          {/* The other attributes in words, never the engine's keys (recordedInputTokens, recordedModel …). */}
          {attributeRows(span.attributes, (key) => !repeatsEvent(key, span.kind, data?.events ?? [])).map((row) => (
            <FragmentRow key={row.key} name={row.label} value={row.value} />
          ))}
        </dl>
      ) : null}
      {span?.kind === "inference" && span.status === "ok" ? (
        <Link className="text-xs text-indigo-600 hover:underline" href={playgroundHref(runId, spanId)}>
          Open in playground
        </Link>
      ) : null}
      {subRun ? (
        <Link className="text-xs text-indigo-600 hover:underline" href={`/runs/${encodeURIComponent(subRun)}`}>
          Open the sub-run {subRun}
        </Link>
      ) : null}
      {live && !data?.output ? <LiveOutputView live={live} /> : null}
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
      <FeedbackWidget runId={runId} spanId={spanId} title="Feedback on this span" />
    </aside>
  );
}

function FragmentRow({ name, value }: { name: string; value: string }) {
  return (
    <>
      <dt className="text-zinc-500" data-testid="span-attribute">
        {name}
      </dt>
      <dd className="break-all">{value}</dd>
    </>
  );
}

/** The answer as it is written, with its tokens so far (estimated: the call's recorded count replaces it once stored). */
function LiveOutputView({ live }: { live: LiveOutput }) {
  return (
    <div data-testid="span-live" className="rounded-md border border-indigo-200 bg-indigo-50/40 p-2">
      <p className="mb-1 flex items-baseline justify-between gap-2 text-xs font-medium text-zinc-700">
        <span>Model output, being written</span>
        <span data-testid="span-live-tokens" data-tokens={live.tokens} className="shrink-0 font-normal text-indigo-700" title="estimated until the call is stored">
          ≈ {formatCount(live.tokens)} tok so far
        </span>
      </p>
      <p data-testid="span-live-output" aria-live="polite" className="max-h-64 overflow-auto whitespace-pre-wrap break-words text-xs text-zinc-800">
        {live.text}
        <span aria-hidden className="ml-0.5 inline-block h-3 w-1 animate-pulse bg-indigo-500 align-middle" />
      </p>
    </div>
  );
}
