import { describe, expect, it } from "vitest";
import { RunState } from "./run-state";

describe("RunState", () => {
  it("numbers events densely and serves them since a sequence number", () => {
    const state = new RunState();
    for (let i = 1; i <= 5; i++) state.emit({ type: "iteration_started", iteration: i });
    expect(state.events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(state.eventsSince(3).map((e) => e.seq)).toEqual([4, 5]);
    expect(state.eventsSince(0, 2).map((e) => e.seq)).toEqual([1, 2]);
    expect(state.eventsSince(9)).toEqual([]);
  });

  it("derives the status from approvals and tools in flight", () => {
    const state = new RunState();
    state.baseStatus = "thinking";
    state.toolsInFlight = 1;
    expect(state.status()).toBe("awaiting_tool");
    state.approvals.set("a", {
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
      status: "pending",
      decision: null,
    });
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

    const restored = RunState.restore(JSON.parse(JSON.stringify(state.snapshot())));
    expect(restored.generation).toBe(1);
    expect(restored.totalTokens()).toBe(7);
    restored.emit({ type: "user_message", content: "again" });
    expect(restored.events.map((e) => e.seq)).toEqual([1, 2]);
    const [root] = restored.traceTree();
    expect(root?.kind).toBe("run");
    expect(root?.children[0]?.children[0]).toMatchObject({ kind: "inference", status: "ok", attempts: 2, tokens: { inputTokens: 3, outputTokens: 4 } });
    // New spans keep unique ids after the restore.
    expect(restored.startSpan("iteration", "iteration 2", run.id).id).not.toBe(iteration.id);
  });
});
