// A run tree's ledger (runs, spans, events) as OpenTelemetry spans: GenAI
// semantic conventions where they name the thing (invoke_agent, chat,
// execute_tool and their gen_ai.* attributes), OpenInference's span kinds so
// Phoenix shows agents, LLM calls and tools as such, and `zap.*` attributes for
// what only a durable engine knows (attempts, retry reasons, workflow ids,
// continue-as-new, who decided an approval, routing, handoffs, plan nodes).
// Pure: the same ledger always gives the same spans, ids and times.
import { SpanKind } from "@opentelemetry/api";
import type { RunEvent, TraceSpan } from "../contract/types";
import { spanIdFor, traceIdFor } from "./ids";
import { GEN_AI, OPENINFERENCE, ZAP } from "./attributes";

/** One run of the tree, as the ledger holds it. */
export interface LedgerRun {
  id: string;
  rootRunId: string;
  parentRunId: string | null;
  agentName: string;
  graphName: string | null;
  agentVersionId: string | null;
  status: string;
  errorReason: string | null;
  generation: number;
  startedAt: Date;
  endedAt: Date | null;
  spans: TraceSpan[];
  /** The events the mapping reads (EXPORTED_EVENT_TYPES), in order. */
  events: RunEvent[];
}

/** The events the mapping reads; the reader fetches only these. */
export const EXPORTED_EVENT_TYPES = ["approval_decided", "continued_as_new", "plan_node_finished", "run_failed", "run_cancelled", "routed_agent_failed", "output_invalid", "budget_extended"] as const satisfies readonly RunEvent["type"][];

export type AttributeValue = string | number | boolean;

export interface ExportSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: SpanKind;
  startMs: number;
  endMs: number;
  status: "ok" | "error" | "unset";
  statusMessage?: string;
  attributes: Record<string, AttributeValue>;
  events: { name: string; atMs: number; attributes: Record<string, AttributeValue> }[];
}

/** `retryReason` → `retry_reason`: OTel attribute names are snake_case. */
function snake(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** `openai/gpt-4o` → provider `openai`, model as configured (the request model is what the agent names). */
function providerOf(model: string): string {
  const slash = model.indexOf("/");
  return slash > 0 ? model.slice(0, slash) : model;
}

const OPENINFERENCE_KIND: Record<TraceSpan["kind"], string> = {
  run: "AGENT",
  sub_agent: "AGENT",
  inference: "LLM",
  tool: "TOOL",
  iteration: "CHAIN",
  approval_wait: "CHAIN",
  timer: "CHAIN",
  routing: "CHAIN",
  handoff: "CHAIN",
  plan: "CHAIN",
  guardrail: "GUARDRAIL",
};

function genAiAttributes(run: LedgerRun, span: TraceSpan): { name: string; kind: SpanKind; attributes: Record<string, AttributeValue> } {
  const tokens: Record<string, AttributeValue> = span.tokens
    ? {
        [GEN_AI.usageInputTokens]: span.tokens.inputTokens,
        [GEN_AI.usageOutputTokens]: span.tokens.outputTokens,
        [OPENINFERENCE.tokenCountPrompt]: span.tokens.inputTokens,
        [OPENINFERENCE.tokenCountCompletion]: span.tokens.outputTokens,
        [OPENINFERENCE.tokenCountTotal]: span.tokens.inputTokens + span.tokens.outputTokens,
      }
    : {};
  switch (span.kind) {
    case "run":
      return {
        name: `invoke_agent ${run.agentName}`,
        kind: SpanKind.INTERNAL,
        attributes: { [GEN_AI.operationName]: "invoke_agent", [GEN_AI.agentName]: run.agentName, [GEN_AI.conversationId]: run.id, ...(run.agentVersionId ? { [GEN_AI.agentId]: run.agentVersionId } : {}), ...tokens },
      };
    case "inference":
      return {
        name: `chat ${span.name}`,
        kind: SpanKind.CLIENT,
        attributes: { [GEN_AI.operationName]: "chat", [GEN_AI.requestModel]: span.name, [GEN_AI.providerName]: providerOf(span.name), [OPENINFERENCE.modelName]: span.name, ...tokens },
      };
    case "tool": {
      const callId = span.attributes?.callId;
      return {
        name: `execute_tool ${span.name}`,
        kind: SpanKind.INTERNAL,
        attributes: { [GEN_AI.operationName]: "execute_tool", [GEN_AI.toolName]: span.name, [GEN_AI.toolType]: "function", [OPENINFERENCE.toolName]: span.name, ...(typeof callId === "string" ? { [GEN_AI.toolCallId]: callId } : {}) },
      };
    }
    case "sub_agent":
      return { name: `sub_agent ${span.name}`, kind: SpanKind.INTERNAL, attributes: { [GEN_AI.agentName]: span.name, ...tokens } };
    default:
      // Routing and handoff spans are named "lead → billing" in the ledger: say which of the two it was.
      return { name: span.kind === "routing" || span.kind === "handoff" ? `${span.kind} ${span.name}` : span.name, kind: SpanKind.INTERNAL, attributes: tokens };
  }
}

/** Where a sub-run hangs in its parent's trace: the parent's span that started it (a child task or a conversation's first message), else the parent's run span. */
function childAnchor(parent: LedgerRun, childId: string): string | null {
  const starter = parent.spans.find((s) => s.kind === "sub_agent" && (s.attributes?.childRunId === childId || s.attributes?.conversationId === childId));
  const anchor = starter ?? parent.spans.find((s) => s.kind === "run");
  return anchor ? spanIdFor(parent.id, anchor.id) : null;
}

/** What an approval wait's decision event says: who decided, how, why. */
function approvalAttributes(run: LedgerRun, span: TraceSpan): Record<string, AttributeValue> {
  const approvalId = span.attributes?.approvalId;
  const decided = run.events.find((e): e is Extract<RunEvent, { type: "approval_decided" }> => e.type === "approval_decided" && e.approvalId === approvalId);
  if (!decided) return {};
  return {
    [ZAP.approvalStatus]: decided.status,
    ...(decided.decidedBy ? { [ZAP.approvalDecidedBy]: decided.decidedBy } : {}),
    ...(decided.reason ? { [ZAP.approvalReason]: decided.reason } : {}),
  };
}

/** Span events on a run's root span: continue-as-new boundaries, failures of routed agents, repairs, budget grants, the end. */
function runSpanEvents(run: LedgerRun): ExportSpan["events"] {
  const out: ExportSpan["events"] = [];
  for (const e of run.events) {
    const atMs = Date.parse(e.at);
    if (e.type === "continued_as_new") out.push({ name: "zap.continued_as_new", atMs, attributes: { [ZAP.generation]: e.generation, "zap.history_length": e.historyLength } });
    else if (e.type === "routed_agent_failed") out.push({ name: "zap.routed_agent_failed", atMs, attributes: { [GEN_AI.agentName]: e.agentName, [ZAP.runId]: e.runId, [ZAP.attempt]: e.attempt, "zap.reason": e.reason } });
    else if (e.type === "output_invalid") out.push({ name: "zap.output_invalid", atMs, attributes: { [ZAP.attempt]: e.attempt, "zap.repairing": e.repairing, "zap.errors": e.errors.length } });
    else if (e.type === "budget_extended") out.push({ name: "zap.budget_extended", atMs, attributes: { "zap.granted_tokens": e.granted, "zap.limit_tokens": e.limit, ...(e.by ? { [ZAP.approvalDecidedBy]: e.by } : {}) } });
    else if (e.type === "run_failed") out.push({ name: "zap.run_failed", atMs, attributes: { [ZAP.errorReason]: e.reason } });
    else if (e.type === "run_cancelled") out.push({ name: "zap.run_cancelled", atMs, attributes: {} });
  }
  return out;
}

/** A plan's node outcomes as events on its plan span. */
function planSpanEvents(run: LedgerRun): ExportSpan["events"] {
  return run.events
    .filter((e): e is Extract<RunEvent, { type: "plan_node_finished" }> => e.type === "plan_node_finished")
    .map((e) => ({
      name: "zap.plan_node_finished",
      atMs: Date.parse(e.at),
      attributes: { "zap.node_id": e.nodeId, "zap.node_status": e.status, [ZAP.attempts]: e.attempts, ...(e.runId ? { [ZAP.runId]: e.runId } : {}), ...(e.reason ? { "zap.reason": e.reason.slice(0, 300) } : {}) },
    }));
}

function mapSpan(run: LedgerRun, span: TraceSpan, parentSpanId: string | null, traceId: string, exportedAtMs: number): ExportSpan {
  const genAi = genAiAttributes(run, span);
  const ledgerAttributes = Object.fromEntries(Object.entries(span.attributes ?? {}).map(([k, v]) => [`zap.${snake(k)}`, v]));
  const startMs = Date.parse(span.startedAt);
  // A span still open when its run answered (a root run's span stays open for follow-ups): it ends with the run's answer here.
  const openEnd = Math.max(startMs, run.endedAt?.getTime() ?? exportedAtMs);
  const endMs = span.endedAt ? Date.parse(span.endedAt) : openEnd;
  const outcome = span.attributes?.outcome;
  return {
    traceId,
    spanId: spanIdFor(run.id, span.id),
    parentSpanId,
    name: genAi.name,
    kind: genAi.kind,
    startMs,
    endMs,
    status: span.status === "ok" ? "ok" : span.status === "error" ? "error" : "unset",
    ...(span.status === "error" && outcome !== undefined ? { statusMessage: String(outcome) } : {}),
    attributes: {
      ...ledgerAttributes,
      ...genAi.attributes,
      [OPENINFERENCE.spanKind]: OPENINFERENCE_KIND[span.kind],
      [ZAP.spanKind]: span.kind,
      [ZAP.ledgerSpanId]: span.id,
      [ZAP.runId]: run.id,
      [ZAP.rootRunId]: run.rootRunId,
      [ZAP.workflowId]: run.id,
      ...(run.parentRunId ? { [ZAP.parentRunId]: run.parentRunId } : {}),
      ...(span.attempts !== undefined ? { [ZAP.attempts]: span.attempts } : {}),
      ...(span.status === "error" && outcome !== undefined ? { [GEN_AI.errorType]: String(outcome) } : {}),
      ...(span.endedAt ? {} : { [ZAP.spanOpen]: true }),
      ...(span.kind === "approval_wait" ? approvalAttributes(run, span) : {}),
      ...(span.kind === "run"
        ? { [ZAP.generation]: run.generation, [ZAP.runStatus]: run.status, ...(run.graphName ? { [ZAP.graphName]: run.graphName } : {}), ...(run.errorReason ? { [ZAP.errorReason]: run.errorReason } : {}) }
        : {}),
    },
    events: span.kind === "run" ? runSpanEvents(run) : span.kind === "plan" ? planSpanEvents(run) : [],
  };
}

/**
 * Every span of the tree in one trace: each run's spans under their ledger
 * parents, each sub-run's root under the parent span that started it. Open
 * waits (a follow-up window, an idle conversation) are left out: they are
 * not work, and a later export sends them once they end.
 */
export function mapRunTree(runs: readonly LedgerRun[], exportedAtMs: number): ExportSpan[] {
  const root = runs.find((r) => r.parentRunId === null) ?? runs[0];
  if (!root) return [];
  const traceId = traceIdFor(root.rootRunId);
  const byId = new Map(runs.map((r) => [r.id, r]));
  const out: ExportSpan[] = [];
  for (const run of runs) {
    const parentRun = run.parentRunId ? byId.get(run.parentRunId) : undefined;
    const ids = new Set(run.spans.map((s) => s.id));
    for (const span of run.spans) {
      if (span.kind === "timer" && !span.endedAt) continue;
      const parentSpanId = span.parentId && ids.has(span.parentId) ? spanIdFor(run.id, span.parentId) : parentRun ? childAnchor(parentRun, run.id) : null;
      out.push(mapSpan(run, span, parentSpanId, traceId, exportedAtMs));
    }
  }
  return out;
}
