import "server-only";
// A span's details, read on demand so the trace itself stays light: the
// model's input and output for an inference, arguments and result for a tool
// call, the messages of a sub-agent turn, the decision of an approval wait, a
// routing decision, a handoff, and the answers an iteration had rejected.
import { getDb } from "../../db/server/db";
import { RunNotFound } from "../../engine/errors";
import { AppError } from "../../errors";
import type { ChatMessage, RunEvent } from "../../contract/types";
import { countSpansStartedBefore, readEventsOfTypes, readInferenceExchange, readRunRow, readSpan, runExists } from "../../run-ledger/read";
import { asRunSpan, isOwnRunSpan, runTimes } from "../run-time";
import { toSpanView } from "../span-rows";
import { loadPriceBook } from "../../pricing/server/price-book";
import type { TraceSpanView } from "../schemas";

export interface SpanDetails {
  span: TraceSpanView;
  /** Events about this span (tool call start/end, errors, sub-agent turn, approval). */
  events: RunEvent[];
  /** For an inference: the messages sent to the model and the message it produced. */
  input: ChatMessage[] | null;
  output: ChatMessage | null;
  /** Messages sent to the model beyond what is returned (the list is capped). */
  inputOmitted: number;
}

const INPUT_CAP = 200;

/** Events whose JSON mentions `needle` (a call, conversation or approval id), of the given types. */
function eventsMentioning(runId: string, types: RunEvent["type"][], needle: string): Promise<RunEvent[]> {
  return readEventsOfTypes(getDb(), runId, types, { take: 50, mentioning: needle });
}

/** Events of one orchestration kind read for a span (a run routes a few times and hands off at most maxHandoffs times). */
const EVENTS_OF_KIND = 50;

/** The element at `index`, as a list of zero or one. */
const nth = <T,>(list: readonly T[], index: number): T[] => (list[index] !== undefined ? [list[index]] : []);

/** The output_invalid events of one iteration. */
async function rejectedAnswers(runId: string, iteration: number): Promise<RunEvent[]> {
  const rejected = await readEventsOfTypes(getDb(), runId, ["output_invalid"], { take: EVENTS_OF_KIND });
  return rejected.filter((e) => e.type === "output_invalid" && e.iteration === iteration);
}

/**
 * A routing span's decision and, when the chosen agent failed, that failure.
 * The span names its attempt when the engine recorded it; otherwise the k-th
 * routing span of the run is the k-th decision.
 */
async function routingEvents(runId: string, span: TraceSpanView, startedAt: Date): Promise<RunEvent[]> {
  const db = getDb();
  const all = await readEventsOfTypes(db, runId, ["routing_decided", "routed_agent_failed"], { take: EVENTS_OF_KIND });
  const decisions = all.filter((e) => e.type === "routing_decided");
  const named = span.attributes?.attempt;
  const decision = typeof named === "number" ? decisions.filter((e) => e.decision.attempt === named) : nth(decisions, await countSpansStartedBefore(db, runId, "routing", startedAt));
  const attempt = decision[0]?.decision.attempt;
  return [...decision, ...all.filter((e) => e.type === "routed_agent_failed" && e.attempt === attempt)];
}

export async function spanDetails(runId: string, spanId: string): Promise<SpanDetails> {
  const db = getDb();
  const found = await readSpan(db, runId, spanId);
  if (!found) {
    if (!(await runExists(db, runId))) throw new RunNotFound(runId);
    throw new AppError("not_found", 404, `There is no span "${spanId}" in run "${runId}"`);
  }
  const raw = toSpanView(runId, found, await loadPriceBook(db));
  // The run's own span lasts as long as the run worked, as the header and the trace say (lib/runs/run-time.ts).
  const run = isOwnRunSpan(raw) ? await readRunRow(db, runId) : null;
  const span = run ? asRunSpan(raw, runTimes({ startedAt: run.startedAt.toISOString(), endedAt: run.endedAt?.toISOString() ?? null })) : raw;
  const attrs = span.attributes ?? {};
  let events: RunEvent[] = [];
  let input: ChatMessage[] | null = null;
  let output: ChatMessage | null = null;
  let inputOmitted = 0;
  if (span.kind === "tool" && typeof attrs.callId === "string") {
    events = await eventsMentioning(runId, ["tool_call_started", "tool_call_completed", "error", "approval_requested", "approval_decided"], `"${attrs.callId}"`);
    // A call whose data failed its schema (`return`): the errors and whether a repair followed.
    const started = events.find((e) => e.type === "tool_call_started");
    if (attrs.validation_ok === false && started?.type === "tool_call_started") events = [...events, ...(await rejectedAnswers(runId, started.iteration))];
  } else if (span.kind === "sub_agent" && typeof attrs.conversationId === "string") {
    const all = await eventsMentioning(runId, ["sub_agent_message", "sub_agent_reply"], `"${attrs.conversationId}"`);
    events = all.filter((e) => "turn" in e && e.turn === attrs.turn);
  } else if (span.kind === "approval_wait" && typeof attrs.approvalId === "string") {
    events = await eventsMentioning(runId, ["approval_requested", "approval_decided"], `"${attrs.approvalId}"`);
  } else if (span.kind === "routing") {
    events = await routingEvents(runId, span, new Date(found.startedAt));
  } else if (span.kind === "handoff") {
    const handoffs = await readEventsOfTypes(db, runId, ["handoff"], { take: EVENTS_OF_KIND });
    const byDepth = typeof attrs.depth === "number" ? handoffs.filter((e) => e.type === "handoff" && e.depth === attrs.depth) : [];
    events = byDepth.length ? byDepth : nth(handoffs, await countSpansStartedBefore(db, runId, "handoff", new Date(found.startedAt)));
  } else if (span.kind === "iteration" && typeof attrs.iteration === "number") {
    events = await rejectedAnswers(runId, attrs.iteration);
  } else if (span.kind === "inference" && span.status === "ok") {
    const exchange = await readInferenceExchange(db, runId, new Date(found.startedAt), INPUT_CAP);
    if (exchange) ({ input, output, inputOmitted } = exchange);
  }
  return { span, events, input, output, inputOmitted };
}
