import { describe, expect, it } from "vitest";
import type { RunEvent } from "../contract/types";
import { argumentPhrase, eventPhrase } from "./event-phrase";

const at = { seq: 1, at: "2026-01-01T00:00:00.000Z" };

describe("eventPhrase", () => {
  it("says tool calls and their results with arguments and latency", () => {
    expect(eventPhrase({ ...at, type: "tool_call_started", iteration: 1, callId: "c", tool: "lookup_order", arguments: '{"order_id":"4417","note":"two words"}' })).toBe('Calling lookup_order with order_id 4417, note "two words"…');
    expect(eventPhrase({ ...at, type: "tool_call_started", iteration: 1, callId: "c", tool: "current_time", arguments: "{}" })).toBe("Calling current_time…");
    expect(eventPhrase({ ...at, type: "tool_call_completed", iteration: 1, callId: "c", tool: "lookup_order", outcome: "ok", durationMs: 120.4, attempts: 1, result: "{}" })).toBe("lookup_order answered in 120 ms");
    expect(eventPhrase({ ...at, type: "tool_call_completed", iteration: 1, callId: "c", tool: "transfer", outcome: "rejected", durationMs: 0, attempts: 1, result: "" })).toBe("transfer was not run: the call was rejected");
  });

  it("says handoffs, plan nodes and the end in the run page's words", () => {
    const handoff: RunEvent = { ...at, type: "handoff", from: "front-desk", to: "refunds", reason: "a refund", depth: 1, context: "summary", messageIndex: 3 };
    expect(eventPhrase(handoff)).toBe("Handoff front-desk → refunds: a refund");
    expect(eventPhrase({ ...at, type: "plan_node_finished", nodeId: "n2", status: "failed", runId: null, reason: "no such invoice", attempts: 2 })).toBe("Plan step n2 failed: no such invoice");
    expect(eventPhrase({ ...at, type: "run_failed", reason: "model_error", message: "provider down" })).toBe("Run failed (model_error): provider down");
  });

  it("says that a new message interrupted a turn", () => {
    expect(eventPhrase({ ...at, type: "turn_interrupted", turn: 1, message: "interrupted by a new message", withdrawnApprovals: ["a1"] })).toBe("Turn 1 interrupted by a new message (1 approval withdrawn)");
  });

  it("cuts long arguments at 80 characters", () => {
    const phrase = argumentPhrase(JSON.stringify({ text: "x".repeat(200) }));
    expect(phrase.length).toBe(80);
    expect(phrase.endsWith("…")).toBe(true);
  });
});
