import "server-only";
// A span's details, read on demand so the trace itself stays light: the
// model's input and output for an inference, arguments and result for a tool
// call, the messages of a sub-agent turn, the decision of an approval wait.
import { getDb } from "../../db/server/db";
import { RunNotFound } from "../../engine/errors";
import { AppError } from "../../errors";
import type { ChatMessage, RunEvent } from "../../contract/types";
import { readEventsOfTypes, readInferenceExchange, readSpan, runExists } from "../../run-ledger/read";
import { toSpanView } from "../span-rows";
import { getConfig } from "../../config/server/config";
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

export async function spanDetails(runId: string, spanId: string): Promise<SpanDetails> {
  const db = getDb();
  const found = await readSpan(db, runId, spanId);
  if (!found) {
    if (!(await runExists(db, runId))) throw new RunNotFound(runId);
    throw new AppError("not_found", 404, `There is no span "${spanId}" in run "${runId}"`);
  }
  const span = toSpanView(runId, found, getConfig().models.prices);
  const attrs = span.attributes ?? {};
  let events: RunEvent[] = [];
  let input: ChatMessage[] | null = null;
  let output: ChatMessage | null = null;
  let inputOmitted = 0;
  if (span.kind === "tool" && typeof attrs.callId === "string") {
    events = await eventsMentioning(runId, ["tool_call_started", "tool_call_completed", "error", "approval_requested", "approval_decided"], `"${attrs.callId}"`);
  } else if (span.kind === "sub_agent" && typeof attrs.conversationId === "string") {
    const all = await eventsMentioning(runId, ["sub_agent_message", "sub_agent_reply"], `"${attrs.conversationId}"`);
    events = all.filter((e) => "turn" in e && e.turn === attrs.turn);
  } else if (span.kind === "approval_wait" && typeof attrs.approvalId === "string") {
    events = await eventsMentioning(runId, ["approval_requested", "approval_decided"], `"${attrs.approvalId}"`);
  } else if (span.kind === "inference" && span.status === "ok") {
    const exchange = await readInferenceExchange(db, runId, new Date(found.startedAt), INPUT_CAP);
    if (exchange) ({ input, output, inputOmitted } = exchange);
  }
  return { span, events, input, output, inputOmitted };
}
