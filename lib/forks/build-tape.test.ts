import { describe, expect, it } from "vitest";
import type { ForkEvent, ForkSource } from "../run-ledger/forks";
import type { TraceSpan } from "../contract/types";
import { buildForkTape, StepNotFound } from "./build-tape";
import { ValidationError } from "../errors";

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

const ROOT = "main-0b7a1f3e-8a3d-4c55-9d2e-6f1c2b8e9c11";
const CHILD = `${ROOT}.billing-1a2b3c4d`;
const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const span = (id: string, kind: TraceSpan["kind"], name: string, start: number, end: number | null, attributes?: TraceSpan["attributes"]): TraceSpan => ({
  id,
  parentId: null,
  kind,
  name,
  startedAt: t(start),
  endedAt: end === null ? null : t(end),
  status: end === null ? "running" : "ok",
  ...(attributes ? { attributes } : {}),
});
const usage = { inputTokens: 10, outputTokens: 2 };

/** The root: model (0–1) calls calculator (1–2) and ledger_transfer (1–3, approved); model (3–4) messages billing (4–9); model (9–10) answers. The child: model (5–6) calls calculator (6–7); model (7–8) answers. */
function source(): ForkSource {
  let seq = 0;
  const ev = (runId: string, body: DistributiveOmit<ForkEvent, "seq" | "at">) => ({ runId, event: { ...body, seq: ++seq, at: t(0) } as ForkEvent });
  return {
    root: { id: ROOT, agentName: "main", graphName: "g", agentVersionId: "v1", variantOfVersionId: null, task: "task", context: "{}" },
    runs: [
      { id: ROOT, parentRunId: null, startedAt: new Date(t(0)) },
      { id: CHILD, parentRunId: ROOT, startedAt: new Date(t(4)) },
    ],
    spans: [
      { runId: ROOT, span: span("s3", "inference", "demo/main", 0, 1) },
      { runId: ROOT, span: span("s4", "tool", "calculator", 1, 2, { callId: "c1" }) },
      { runId: ROOT, span: span("s5", "tool", "ledger_transfer", 1, 3, { callId: "c2" }) },
      { runId: ROOT, span: span("s7", "inference", "demo/main", 3, 4) },
      { runId: ROOT, span: span("s8", "tool", "message_agent", 4, 9, { callId: "c3" }) },
      { runId: ROOT, span: span("s10", "inference", "demo/main", 9, 10) },
      { runId: CHILD, span: span("s3", "inference", "demo/billing", 5, 6) },
      { runId: CHILD, span: span("s4", "tool", "calculator", 6, 7, { callId: "k1" }) },
      { runId: CHILD, span: span("s6", "inference", "demo/billing", 7, 8) },
    ],
    events: [
      ev(ROOT, { type: "inference_started", iteration: 1, model: "demo/main" }),
      ev(ROOT, { type: "inference_completed", iteration: 1, model: "demo/main", usage, latencyMs: 1, toolCalls: 2, attempts: 1 }),
      ev(ROOT, { type: "tool_call_started", iteration: 1, callId: "c1", tool: "calculator", arguments: "{}" }),
      ev(ROOT, { type: "tool_call_started", iteration: 1, callId: "c2", tool: "ledger_transfer", arguments: "{}" }),
      ev(ROOT, { type: "tool_call_completed", iteration: 1, callId: "c1", tool: "calculator", outcome: "ok", durationMs: 1, attempts: 1, result: "4" }),
      ev(ROOT, {
        type: "approval_requested",
        approval: { id: "ap1", runId: ROOT, parentRunId: null, rootRunId: ROOT, agentName: "main", toolName: "ledger_transfer", toolCallId: "c2", arguments: {}, requestedAt: t(1), expiresAt: t(99), requiredRole: null, requiredApprovals: 1, endorsements: [], requestedBy: null, allowSelfApproval: false, onExpiry: "reject", status: "pending", decision: null },
      }),
      ev(ROOT, { type: "approval_decided", approvalId: "ap1", tool: "ledger_transfer", status: "approved", decidedBy: "approver@zap.local", reason: "fine" }),
      ev(ROOT, { type: "tool_call_completed", iteration: 1, callId: "c2", tool: "ledger_transfer", outcome: "ok", durationMs: 1, attempts: 1, result: "moved" }),
      ev(ROOT, { type: "inference_started", iteration: 2, model: "demo/main" }),
      ev(ROOT, { type: "inference_completed", iteration: 2, model: "demo/main", usage, latencyMs: 1, toolCalls: 1, attempts: 1 }),
      ev(ROOT, { type: "tool_call_started", iteration: 2, callId: "c3", tool: "message_agent", arguments: "{}" }),
      ev(ROOT, { type: "tool_call_completed", iteration: 2, callId: "c3", tool: "message_agent", outcome: "ok", durationMs: 1, attempts: 1, result: "billed" }),
      ev(ROOT, { type: "inference_started", iteration: 3, model: "demo/main" }),
      ev(ROOT, { type: "inference_completed", iteration: 3, model: "demo/main", usage, latencyMs: 1, toolCalls: 0, attempts: 1 }),
      ev(CHILD, { type: "inference_started", iteration: 1, model: "demo/billing" }),
      ev(CHILD, { type: "inference_completed", iteration: 1, model: "demo/billing", usage, latencyMs: 1, toolCalls: 1, attempts: 1 }),
      ev(CHILD, { type: "tool_call_started", iteration: 1, callId: "k1", tool: "calculator", arguments: "{}" }),
      ev(CHILD, { type: "tool_call_completed", iteration: 1, callId: "k1", tool: "calculator", outcome: "ok", durationMs: 1, attempts: 1, result: "42" }),
      ev(CHILD, { type: "inference_started", iteration: 2, model: "demo/billing" }),
      ev(CHILD, { type: "inference_completed", iteration: 2, model: "demo/billing", usage, latencyMs: 1, toolCalls: 0, attempts: 1 }),
    ],
    assistantMessages: [
      { runId: ROOT, message: { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "calculator", arguments: "{}" } }, { id: "c2", type: "function", function: { name: "ledger_transfer", arguments: "{}" } }] } },
      { runId: ROOT, message: { role: "assistant", content: null, tool_calls: [{ id: "c3", type: "function", function: { name: "message_agent", arguments: "{}" } }] } },
      { runId: ROOT, message: { role: "assistant", content: "done" } },
      { runId: CHILD, message: { role: "assistant", content: null, tool_calls: [{ id: "k1", type: "function", function: { name: "calculator", arguments: "{}" } }] } },
      { runId: CHILD, message: { role: "assistant", content: "42 it is" } },
    ],
  };
}

const EDITOR = { by: "builder@zap.local", at: "2026-01-02T03:04:05.000Z" };
const kinds = (entries: ReturnType<typeof buildForkTape>) => entries.map((e) => (e.kind === "model" ? `model ${e.path || "root"}@${e.iteration}` : e.kind === "tool_at" ? `${e.tool} ${e.path || "root"}@${e.iteration}` : e.kind));

describe("buildForkTape", () => {
  it("takes every step that ended by the fork step's start, at its path, with the recorded approval; engine tools stay off the tape", () => {
    const entries = buildForkTape(source(), { runId: ROOT, spanId: "s10" }, EDITOR);
    expect(kinds(entries)).toEqual(["model root@1", "model root@2", "calculator root@1", "ledger_transfer root@1", "model .billing#1@1", "model .billing#1@2", "calculator .billing#1@1"]);
    expect(entries.find((e) => e.kind === "tool_at" && e.tool === "ledger_transfer")).toMatchObject({ result: "moved", approval: { approved: true, reason: "fine", decidedBy: "approver@zap.local" } });
    expect(entries[0]).toMatchObject({ response: { text: null, toolCalls: [{ id: "c1", name: "calculator" }, { id: "c2", name: "ledger_transfer" }], usage, model: "demo/main" } });
  });

  it("counts a step that ended in the activation the fork step started in, and leaves out the fork step and what ended later", () => {
    // Forking at the calculator (starts at 1): the model call that ended at 1 is in; the transfer (ends at 3) is not.
    expect(kinds(buildForkTape(source(), { runId: ROOT, spanId: "s4" }, EDITOR))).toEqual(["model root@1"]);
  });

  it("puts an edited tool result at the fork step, and an edited model output as an answer without tool calls", () => {
    const tool = buildForkTape(source(), { runId: CHILD, spanId: "s4", editedToolResult: "41" }, EDITOR);
    expect(kinds(tool)).toEqual(["model root@1", "model root@2", "calculator root@1", "ledger_transfer root@1", "model .billing#1@1", "calculator .billing#1@1"]);
    expect(tool.at(-1)).toMatchObject({ kind: "tool_at", path: ".billing#1", callId: "k1", result: "41", outcome: "ok" });
    const model = buildForkTape(source(), { runId: ROOT, spanId: "s7", editedModelOutput: "no need to ask billing" }, EDITOR);
    expect(model.find((e) => e.kind === "model" && e.iteration === 2)).toMatchObject({ response: { text: "no need to ask billing", toolCalls: [], usage: { inputTokens: 0, outputTokens: 0 } } });
  });

  it("marks the edited entry as edited, by whom and when, and no recorded entry", () => {
    const tool = buildForkTape(source(), { runId: CHILD, spanId: "s4", editedToolResult: "41" }, EDITOR);
    expect(tool.at(-1)).toMatchObject({ edited: EDITOR });
    expect(tool.slice(0, -1).every((e) => !("edited" in e))).toBe(true);
    const model = buildForkTape(source(), { runId: ROOT, spanId: "s7", editedModelOutput: "no need to ask billing" }, EDITOR);
    expect(model.filter((e) => "edited" in e)).toEqual([expect.objectContaining({ kind: "model", iteration: 2, edited: EDITOR })]);
  });

  it("stops reusing a run's model calls where its messages no longer line up with its events", () => {
    const broken = source();
    broken.assistantMessages = broken.assistantMessages.filter((m, i) => !(m.runId === ROOT && i === 1));
    expect(kinds(buildForkTape(broken, { runId: ROOT, spanId: "s10" }, EDITOR))).not.toContain("model root@2");
  });

  it("refuses an unknown step and an edit on the wrong kind of step", () => {
    expect(() => buildForkTape(source(), { runId: ROOT, spanId: "s99" }, EDITOR)).toThrow(StepNotFound);
    expect(() => buildForkTape(source(), { runId: ROOT, spanId: "s99" }, EDITOR)).toThrow(`There is no step s99 in run ${ROOT}`);
    expect(() => buildForkTape(source(), { runId: ROOT, spanId: "s3", editedToolResult: "x" }, EDITOR)).toThrow(ValidationError);
    expect(() => buildForkTape(source(), { runId: ROOT, spanId: "s4", editedModelOutput: "x" }, EDITOR)).toThrow(/Only a model step's output can be edited/);
  });
});
