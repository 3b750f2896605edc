// The tape of a fork, built from the origin run tree's ledger: every model
// response and tool result whose span ENDED before the fork's span STARTED
// (span times are workflow time, so a model call that ends in the activation
// where its tool calls start counts as before them), at its place in the tree
// (lib/tapes/paths.ts), with the recorded approval of a gated call. The fork's
// own step is live, unless it is edited:
// - a tool step with an edited result: a tool_at entry with that result (outcome ok);
// - a model step with an edited output: a model entry with that text and NO tool
//   calls — the step becomes the agent's answer, so what the fork shows is what
//   was written, not calls the edit may contradict.
// An edited entry carries `edited` (who, when): the engine replays it as edited,
// never as a recording.
// The engine's own tools (message_agent, return, fail, handoff) are not on the
// tape: a conversation replays through its child run's own entries.
import { AppError, ValidationError } from "../errors";
import type { TraceSpan } from "../contract/types";
import type { ForkEvent, ForkSource } from "../run-ledger/forks";
import { treePaths } from "../tapes/paths";
import type { RecordedDecision, TapeEdit, TapeEntry } from "../tapes/schemas";

const ENGINE_TOOLS = new Set(["message_agent", "return", "fail", "handoff"]);

export class StepNotFound extends AppError {
  constructor(spanId: string, runId: string) {
    super("not_found", 404, `There is no step ${spanId} in run ${runId}`);
    this.name = "StepNotFound";
  }
}

export interface ForkPoint {
  runId: string;
  spanId: string;
  editedToolResult?: string;
  editedModelOutput?: string;
}

type Of<T extends ForkEvent["type"]> = Extract<ForkEvent, { type: T }>;

/** The fork's span, checked against the edits asked for (422 naming the mismatch). */
export function forkSpanOf(source: ForkSource, point: ForkPoint): TraceSpan {
  const found = source.spans.find((s) => s.runId === point.runId && s.span.id === point.spanId);
  if (!found) throw new StepNotFound(point.spanId, point.runId);
  const { span } = found;
  if (point.editedToolResult !== undefined && point.editedModelOutput !== undefined) {
    throw new ValidationError([{ path: "editedModelOutput", message: "edit either a tool result or a model output, not both" }], "Edit one step at a time");
  }
  if (point.editedToolResult !== undefined && span.kind !== "tool") {
    throw new ValidationError([{ path: "editedToolResult", message: `step ${span.id} is a ${span.kind} step, not a tool call` }], `Only a tool step's result can be edited; ${span.id} is a ${span.kind} step`);
  }
  if (point.editedModelOutput !== undefined && span.kind !== "inference") {
    throw new ValidationError([{ path: "editedModelOutput", message: `step ${span.id} is a ${span.kind} step, not a model call` }], `Only a model step's output can be edited; ${span.id} is a ${span.kind} step`);
  }
  return span;
}

const endedBy = (span: TraceSpan, cut: number) => span.endedAt !== null && Date.parse(span.endedAt) <= cut;

/** A step the origin itself took from an edit (a fork of a fork): its mark goes on with it, so an edit never becomes a recording by being forked again. */
function editOf(span: TraceSpan): { edited: TapeEdit } | Record<string, never> {
  const a = span.attributes;
  if (a?.edited !== true) return {};
  return { edited: { by: typeof a.editedBy === "string" && a.editedBy ? a.editedBy : "unknown", at: typeof a.editedAt === "string" && a.editedAt ? a.editedAt : span.startedAt } };
}

/** `editor`: who is forking now; it marks the edited entry, if any. */
export function buildForkTape(source: ForkSource, point: ForkPoint, editor: TapeEdit): TapeEntry[] {
  const forkSpan = forkSpanOf(source, point);
  const cut = Date.parse(forkSpan.startedAt);
  const paths = treePaths(source.root.id, source.runs);
  const entries: TapeEntry[] = [];
  const isFork = (runId: string, span: TraceSpan) => runId === point.runId && span.id === point.spanId;

  for (const run of source.runs) {
    const path = paths.get(run.id);
    if (path === undefined) continue;
    const spans = source.spans.filter((s) => s.runId === run.id).map((s) => s.span);
    const events = source.events.filter((e) => e.runId === run.id).map((e) => e.event);
    const ofType = <T extends ForkEvent["type"]>(type: T) => events.filter((e): e is Of<T> => e.type === type);

    // Model calls: the n-th inference span is the n-th inference_started; the n-th that completed is the
    // n-th inference_completed and the n-th assistant message (checked: the same number of tool calls).
    const started = ofType("inference_started");
    const completed = ofType("inference_completed");
    const messages = source.assistantMessages.filter((m) => m.runId === run.id).map((m) => m.message);
    let done = 0;
    let aligned = true;
    spans
      .filter((s) => s.kind === "inference")
      .forEach((span, n) => {
        const start = started[n];
        if (span.status !== "ok") {
          if (isFork(run.id, span) && point.editedModelOutput !== undefined && start) entries.push(editedModel(path, start.iteration, start.model, point.editedModelOutput, editor));
          return;
        }
        const event = completed[done];
        const message = messages[done];
        done++;
        if (!event || !message || (message.tool_calls?.length ?? 0) !== event.toolCalls) aligned = false;
        if (isFork(run.id, span)) {
          if (point.editedModelOutput !== undefined) entries.push(editedModel(path, event?.iteration ?? start?.iteration ?? 0, event?.model ?? span.name, point.editedModelOutput, editor));
          return;
        }
        if (!aligned || !event || !message || !endedBy(span, cut)) return;
        entries.push({
          kind: "model",
          path,
          iteration: event.iteration,
          response: {
            text: message.content,
            toolCalls: (message.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })),
            usage: event.usage,
            model: event.model,
          },
          ...editOf(span),
        });
      });

    // Tool calls: each tool span names its call id; its started event gives the iteration, its completed event the result.
    const decisions = recordedDecisions(ofType("approval_requested"), ofType("approval_decided"));
    const startedCalls = ofType("tool_call_started");
    const completedCalls = ofType("tool_call_completed");
    const seen = new Map<string, number>();
    for (const span of spans.filter((s) => s.kind === "tool")) {
      const callId = span.attributes?.callId;
      if (typeof callId !== "string") continue;
      const k = seen.get(callId) ?? 0;
      seen.set(callId, k + 1);
      const start = startedCalls.filter((e) => e.callId === callId)[k];
      if (!start || ENGINE_TOOLS.has(start.tool)) continue;
      if (isFork(run.id, span)) {
        if (point.editedToolResult !== undefined) entries.push({ kind: "tool_at", path, iteration: start.iteration, callId, tool: start.tool, outcome: "ok", result: point.editedToolResult, edited: editor });
        continue;
      }
      const end = completedCalls.filter((e) => e.callId === callId)[k];
      if (!end || !endedBy(span, cut)) continue;
      const approval = decisions.get(`${start.iteration}:${callId}`) ?? decisions.get(callId);
      entries.push({ kind: "tool_at", path, iteration: start.iteration, callId, tool: start.tool, outcome: end.outcome, result: end.result, ...(approval ? { approval } : {}), ...editOf(span) });
    }
  }
  return entries;
}

function editedModel(path: string, iteration: number, model: string, text: string, edited: TapeEdit): TapeEntry {
  return { kind: "model", path, iteration, response: { text, toolCalls: [], usage: { inputTokens: 0, outputTokens: 0 }, model }, edited };
}

/** The decided approvals of a run's tool calls, by call id (the last decision of each). */
function recordedDecisions(requested: Of<"approval_requested">[], decided: Of<"approval_decided">[]): Map<string, RecordedDecision> {
  const callOf = new Map(requested.filter((r) => (r.approval.kind ?? "tool") === "tool").map((r) => [r.approval.id, r.approval.toolCallId]));
  const byCall = new Map<string, RecordedDecision>();
  for (const d of decided) {
    const callId = callOf.get(d.approvalId);
    if (!callId || d.status === "pending") continue;
    byCall.set(callId, { approved: d.status === "approved", reason: d.reason, decidedBy: d.decidedBy });
  }
  return byCall;
}
