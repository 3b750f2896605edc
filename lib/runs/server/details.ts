import "server-only";
// A span's details, read on demand so the trace itself stays light: the
// model's input and output for an inference, arguments and result for a tool
// call, the messages of a sub-agent turn, the decision of an approval wait.
import { getDb } from "../../db/server/db";
import { RunNotFound } from "../../engine/errors";
import { AppError } from "../../errors";
import type { ChatMessage, RunEvent } from "../../contract/types";
import { spanFromRecord } from "../../run-ledger/read";
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
async function eventsMentioning(runId: string, types: string[], needle: string): Promise<RunEvent[]> {
  const rows = await getDb().runEvent.findMany({ where: { runId, type: { in: types }, data: { contains: needle } }, orderBy: { seq: "asc" }, take: 50, select: { data: true } });
  return rows.map((r) => JSON.parse(r.data) as RunEvent);
}

export async function spanDetails(runId: string, spanId: string): Promise<SpanDetails> {
  const db = getDb();
  const row = await db.runSpan.findUnique({ where: { runId_spanId: { runId, spanId } } });
  if (!row) {
    if (!(await db.run.findUnique({ where: { id: runId }, select: { id: true } }))) throw new RunNotFound(runId);
    throw new AppError("not_found", 404, `There is no span "${spanId}" in run "${runId}"`);
  }
  const span = toSpanView(runId, spanFromRecord(row), getConfig().models.prices);
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
    // The k-th successful inference produced the k-th assistant message; its input is everything before it.
    const k = await db.runSpan.count({ where: { runId, kind: "inference", status: "ok", startedAt: { lt: row.startedAt } } });
    const assistants = await db.runMessage.findMany({ where: { runId, role: "assistant" }, orderBy: { index: "asc" }, skip: k, take: 1, select: { index: true, data: true } });
    const produced = assistants[0];
    if (produced) {
      output = JSON.parse(produced.data) as ChatMessage;
      inputOmitted = Math.max(0, produced.index - INPUT_CAP);
      const before = await db.runMessage.findMany({ where: { runId, index: { lt: produced.index, gte: inputOmitted } }, orderBy: { index: "asc" }, select: { data: true } });
      input = before.map((m) => JSON.parse(m.data) as ChatMessage);
    }
  }
  return { span, events, input, output, inputOmitted };
}
