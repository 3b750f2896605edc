// The ledger → OpenTelemetry mapping: GenAI attributes, one trace, parent links
// across sub-runs, the engine's own facts, and ids that do not change on re-export.
import { describe, expect, it } from "vitest";
import { SpanKind } from "@opentelemetry/api";
import type { RunEvent, TraceSpan } from "../contract/types";
import { mapRunTree, type ExportSpan, type LedgerRun } from "./mapping";
import { spanIdFor, traceIdFor } from "./ids";

const T0 = Date.parse("2026-11-26T10:00:00.000Z");
const at = (ms: number) => new Date(T0 + ms).toISOString();

function span(id: string, parentId: string | null, kind: TraceSpan["kind"], name: string, from: number, to: number | null, extra: Partial<TraceSpan> = {}): TraceSpan {
  return { id, parentId, kind, name, startedAt: at(from), endedAt: to === null ? null : at(to), status: to === null ? "running" : "ok", ...extra };
}

function event(seq: number, ms: number, body: Record<string, unknown>): RunEvent {
  return { seq, at: at(ms), ...body } as RunEvent;
}

const root: LedgerRun = {
  id: "run-1",
  rootRunId: "run-1",
  parentRunId: null,
  agentName: "lead",
  graphName: "support-triage",
  agentVersionId: "v-7",
  status: "completed",
  errorReason: null,
  generation: 1,
  startedAt: new Date(T0),
  endedAt: new Date(T0 + 900),
  spans: [
    // Open: a root run's span waits for follow-ups after the answer.
    span("s1", null, "run", "lead", 0, null, { attributes: { depth: 0 } }),
    span("s2", "s1", "iteration", "iteration 1", 10, 800),
    span("s3", "s2", "inference", "openai/gpt-4o", 20, 300, { tokens: { inputTokens: 120, outputTokens: 30 }, attempts: 2, attributes: { retryReason: "rate_limited" } }),
    span("s4", "s2", "tool", "transfer", 310, 700, { attempts: 3, attributes: { callId: "call_9", outcome: "ok", retryReason: "timeout" } }),
    span("s5", "s4", "approval_wait", "approval for transfer", 320, 600, { attributes: { approvalId: "ap-1", decision: "approved" } }),
    span("s6", "s2", "sub_agent", "billing", 705, 790, { attributes: { conversationId: "run-1.billing-ab", turn: 1 } }),
    span("s7", "s2", "routing", "lead → billing", 701, 702, { attributes: { target: "billing", confidence: 0.9, chosen: "billing", fallbackTaken: false, attempt: 1 } }),
    span("s8", "s1", "timer", "follow-up window", 900, null, { attributes: { timer: "follow_up_window" } }),
  ],
  events: [
    event(7, 600, { type: "approval_decided", approvalId: "ap-1", tool: "transfer", status: "approved", decidedBy: "approver@zap.local", reason: "fine" }),
    event(12, 850, { type: "continued_as_new", historyLength: 4000, generation: 1 }),
  ],
};

const child: LedgerRun = {
  ...root,
  id: "run-1.billing-ab",
  parentRunId: "run-1",
  agentName: "billing",
  agentVersionId: null,
  generation: 0,
  endedAt: new Date(T0 + 780),
  spans: [span("s1", null, "run", "billing", 706, 785), span("s2", "s1", "inference", "demo/billing", 710, 720, { tokens: { inputTokens: 5, outputTokens: 6 }, attempts: 1 })],
  events: [],
};

function byName(spans: ExportSpan[], name: string): ExportSpan {
  const found = spans.find((s) => s.name === name);
  if (!found) throw new Error(`no span named "${name}" among ${spans.map((s) => s.name).join(", ")}`);
  return found;
}

describe("mapRunTree", () => {
  const spans = mapRunTree([root, child], T0 + 5000);

  it("puts every run of the tree in one trace, the root's", () => {
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([traceIdFor("run-1")]));
    expect(traceIdFor("run-1")).toMatch(/^[0-9a-f]{32}$/);
  });

  it("names agent, model and tool spans as the GenAI conventions do, with their attributes", () => {
    const agent = byName(spans, "invoke_agent lead");
    expect(agent.attributes).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "lead", "gen_ai.agent.id": "v-7", "openinference.span.kind": "AGENT" });
    const chat = byName(spans, "chat openai/gpt-4o");
    expect(chat.kind).toBe(SpanKind.CLIENT);
    expect(chat.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "openai/gpt-4o",
      "gen_ai.provider.name": "openai",
      "gen_ai.usage.input_tokens": 120,
      "gen_ai.usage.output_tokens": 30,
      "llm.token_count.total": 150,
    });
    const tool = byName(spans, "execute_tool transfer");
    expect(tool.attributes).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "transfer", "gen_ai.tool.call.id": "call_9", "openinference.span.kind": "TOOL" });
  });

  it("carries attempts and retry reasons, workflow and run ids", () => {
    const chat = byName(spans, "chat openai/gpt-4o");
    expect(chat.attributes).toMatchObject({ "zap.attempts": 2, "zap.retry_reason": "rate_limited", "zap.run.id": "run-1", "temporal.workflow.id": "run-1", "zap.root_run.id": "run-1" });
    expect(byName(spans, "execute_tool transfer").attributes).toMatchObject({ "zap.attempts": 3, "zap.retry_reason": "timeout" });
    const childChat = byName(spans, "chat demo/billing");
    expect(childChat.attributes).toMatchObject({ "zap.run.id": "run-1.billing-ab", "zap.parent_run.id": "run-1", "zap.root_run.id": "run-1" });
  });

  it("marks a fork's edited step as edited (who, when), never as a recorded replay (issue 36 §2)", () => {
    const edited: LedgerRun = { ...child, id: "fork-1", rootRunId: "fork-1", parentRunId: null, spans: [span("s1", null, "tool", "ledger_transfer", 0, 1, { attributes: { callId: "c1", outcome: "ok", edited: true, editedBy: "builder@zap.local", editedAt: "2026-11-26T09:00:00.000Z" } })] };
    const [exported] = mapRunTree([edited], T0 + 5000);
    expect(exported?.attributes).toMatchObject({ "zap.edited": true, "zap.edited_by": "builder@zap.local", "zap.edited_at": "2026-11-26T09:00:00.000Z" });
    expect(exported?.attributes["zap.replayed"]).toBeUndefined();
  });

  it("links spans to their ledger parents, and a sub-run's root to the parent span that started it", () => {
    const tool = byName(spans, "execute_tool transfer");
    expect(tool.parentSpanId).toBe(spanIdFor("run-1", "s2"));
    expect(byName(spans, "approval for transfer").parentSpanId).toBe(tool.spanId);
    const subAgentCall = byName(spans, "sub_agent billing");
    const childRoot = byName(spans, "invoke_agent billing");
    expect(childRoot.parentSpanId).toBe(subAgentCall.spanId);
    expect(byName(spans, "chat demo/billing").parentSpanId).toBe(childRoot.spanId);
    expect(byName(spans, "invoke_agent lead").parentSpanId).toBeNull();
  });

  it("records who decided an approval, the routing decision and continue-as-new", () => {
    expect(byName(spans, "approval for transfer").attributes).toMatchObject({ "zap.approval.decided_by": "approver@zap.local", "zap.approval.status": "approved", "zap.approval.reason": "fine", "zap.decision": "approved" });
    expect(byName(spans, "routing lead → billing").attributes).toMatchObject({ "zap.target": "billing", "zap.confidence": 0.9, "zap.fallback_taken": false, "zap.attempt": 1 });
    const agent = byName(spans, "invoke_agent lead");
    expect(agent.attributes["zap.generation"]).toBe(1);
    expect(agent.events).toEqual([{ name: "zap.continued_as_new", atMs: T0 + 850, attributes: { "zap.generation": 1, "zap.history_length": 4000 } }]);
  });

  it("keeps the ledger's times; an open run span ends with the run's answer, an open wait is left out", () => {
    const chat = byName(spans, "chat openai/gpt-4o");
    expect([chat.startMs, chat.endMs]).toEqual([T0 + 20, T0 + 300]);
    const agent = byName(spans, "invoke_agent lead");
    expect([agent.startMs, agent.endMs, agent.status, agent.attributes["zap.span.open"]]).toEqual([T0, T0 + 900, "unset", true]);
    expect(spans.some((s) => s.name === "follow-up window")).toBe(false);
  });

  it("gives the same ids on every export", () => {
    const again = mapRunTree([root, child], T0 + 99_000);
    expect(again.map((s) => [s.spanId, s.parentSpanId])).toEqual(spans.map((s) => [s.spanId, s.parentSpanId]));
    expect(new Set(spans.map((s) => s.spanId)).size).toBe(spans.length);
  });

  it("marks a failed span as an error with its outcome", () => {
    const failed: LedgerRun = { ...child, id: "run-2", rootRunId: "run-2", parentRunId: null, status: "failed", errorReason: "tool_error", spans: [span("s1", null, "run", "billing", 0, 10, { status: "error", attributes: { outcome: "tool_error" } })] };
    const [only] = mapRunTree([failed], T0);
    expect(only).toMatchObject({ status: "error", statusMessage: "tool_error", attributes: { "error.type": "tool_error", "zap.error.reason": "tool_error", "zap.run.status": "failed" } });
  });
});
