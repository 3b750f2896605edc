import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../lib/contract/types";
import { RunState } from "./run-state";
import { spanTree } from "../../lib/run-ledger/read";

const approvalFixture: ApprovalRequest = {
  id: "a",
  runId: "r",
  parentRunId: null,
  rootRunId: "r",
  agentName: "main",
  toolName: "ledger_transfer",
  toolCallId: "c",
  arguments: {},
  requestedAt: "2026-01-01T00:00:00.000Z",
  expiresAt: "2026-01-02T00:00:00.000Z",
  requiredRole: null,
  requiredApprovals: 1,
  endorsements: [],
  requestedBy: null,
  allowSelfApproval: true,
  onExpiry: "reject",
  status: "pending",
  decision: null,
};

describe("RunState", () => {
  it("carries a router's failed children, plan rejections and plans run across continue-as-new (and nothing for runs without them)", () => {
    const state = new RunState();
    expect(state.snapshot()).not.toHaveProperty("routingFailures");
    expect(state.snapshot()).not.toHaveProperty("planRejections");
    expect(state.snapshot()).not.toHaveProperty("plansExecuted");
    state.routingFailures.push({ agentName: "technical", reason: "model_error: down" });
    state.planRejections = 1;
    state.plansExecuted = 2;
    const restored = RunState.restore(JSON.parse(JSON.stringify(state.snapshot())) as ReturnType<RunState["snapshot"]>);
    expect(restored.routingFailures).toEqual([{ agentName: "technical", reason: "model_error: down" }]);
    expect(restored.planRejections).toBe(1);
    expect(restored.plansExecuted).toBe(2);
    // A run carried by an older worker has none of them: it starts from nothing, as it did.
    const { routingFailures: _f, planRejections: _r, plansExecuted: _p, ...older } = state.snapshot();
    const fromOlder = RunState.restore(older);
    expect([fromOlder.routingFailures, fromOlder.planRejections, fromOlder.plansExecuted]).toEqual([[], 0, 0]);
  });

  it("numbers events densely and hands each to the ledger exactly once", () => {
    const state = new RunState();
    for (let i = 1; i <= 3; i++) state.emit({ type: "iteration_started", iteration: i });
    expect(state.outbox.take().events.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(state.outbox.hasWork()).toBe(false);
    state.emit({ type: "iteration_started", iteration: 4 });
    state.pushMessage({ role: "user", content: "hi" });
    const batch = state.outbox.take();
    expect(batch.events.map((e) => e.seq)).toEqual([4]);
    expect(batch.messages).toEqual([{ index: 0, message: { role: "user", content: "hi" } }]);
  });

  it("keeps only open spans and recent approvals, so carried state stays bounded", () => {
    const state = new RunState();
    const run = state.startSpan("run", "main", null);
    state.runSpanId = run.id;
    for (let i = 0; i < 500; i++) {
      state.endSpan(state.startSpan("iteration", `iteration ${i}`, run.id), "ok");
      state.emit({ type: "tool_call_completed", iteration: i, callId: `c${i}`, tool: "t", outcome: "ok", durationMs: 1, attempts: 1, result: "x".repeat(1000) });
      state.pushMessage({ role: "tool", tool_call_id: `c${i}`, name: "t", content: "x".repeat(1000) });
      state.approvals.set(`a${i}`, { ...approvalFixture, id: `a${i}`, status: "approved" });
    }
    const size = JSON.stringify(state.snapshot()).length;
    expect(size, "carried state must not grow with events, spans and messages").toBeLessThan(40_000);
    expect(state.snapshot().openSpans.map((s) => s.id)).toEqual([run.id]);
    expect(state.snapshot().approvals).toHaveLength(50);
    expect(state.messageCount).toBe(500);
  });

  it("derives the status from approvals and tools in flight", () => {
    const state = new RunState();
    state.baseStatus = "thinking";
    state.toolsInFlight = 1;
    expect(state.status()).toBe("awaiting_tool");
    state.approvals.set("a", approvalFixture);
    expect(state.status()).toBe("awaiting_approval");
    state.terminal = { status: "cancelled", reason: "cancelled", message: "x" };
    expect(state.status()).toBe("cancelled");
  });

  it("builds the trace tree and survives a snapshot/restore round trip", () => {
    const state = new RunState();
    const run = state.startSpan("run", "main", null);
    state.runSpanId = run.id;
    const iteration = state.startSpan("iteration", "iteration 1", run.id);
    state.endSpan(state.startSpan("inference", "demo/x", iteration.id), "ok", { tokens: { inputTokens: 3, outputTokens: 4 }, attempts: 2 });
    state.emit({ type: "run_completed", output: "done" });
    state.addUsage({ inputTokens: 3, outputTokens: 4 });
    const written = state.outbox.take();

    const restored = RunState.restore(JSON.parse(JSON.stringify(state.snapshot())));
    expect(restored.generation).toBe(1);
    expect(restored.totalTokens()).toBe(7);
    restored.emit({ type: "user_message", content: "again" });
    expect(restored.outbox.take().events.map((e) => e.seq), "sequence numbers continue across continue-as-new").toEqual([2]);
    const [root] = spanTree(written.spans);
    expect(root?.kind).toBe("run");
    expect(root?.children[0]?.children[0]).toMatchObject({ kind: "inference", status: "ok", attempts: 2, tokens: { inputTokens: 3, outputTokens: 4 } });
    // New spans keep unique ids after the restore.
    expect(restored.startSpan("iteration", "iteration 2", run.id).id).not.toBe(iteration.id);
  });

  it("puts a failed carrier's batch back before newer work, never over a newer span state", () => {
    const state = new RunState();
    state.emit({ type: "iteration_started", iteration: 1 });
    state.pushMessage({ role: "user", content: "first" });
    const span = state.startSpan("tool", "calculator", null);
    const carried = state.outbox.take();

    state.emit({ type: "iteration_started", iteration: 2 });
    state.pushMessage({ role: "user", content: "second" });
    state.endSpan(span, "ok");
    state.outbox.restore(carried);

    const again = state.outbox.take();
    expect(again.events.map((e) => e.seq)).toEqual([1, 2]);
    expect(again.messages.map((m) => m.index)).toEqual([0, 1]);
    expect(again.spans).toHaveLength(1);
    expect(again.spans[0]?.status, "the ended span, not the running one the carrier held").toBe("ok");
    expect(state.outbox.hasWork()).toBe(false);
  });
});

