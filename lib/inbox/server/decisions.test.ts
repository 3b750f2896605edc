import { describe, expect, it } from "vitest";
import { toolResults } from "./decisions";

describe("a run's decided calls", () => {
  it("finds each call's tool result, skipping other and unreadable messages", () => {
    const rows = [
      { data: JSON.stringify({ role: "tool", tool_call_id: "call-1", name: "ledger_transfer", content: '{"status":"completed"}' }) },
      { data: JSON.stringify({ role: "assistant", content: "done" }) },
      { data: "{not json" },
    ];
    expect([...toolResults(rows)]).toEqual([["call-1", '{"status":"completed"}']]);
  });
});
