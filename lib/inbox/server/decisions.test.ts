import { describe, expect, it } from "vitest";
import { toolResults } from "./decisions";

describe("a run's decided calls", () => {
  it("finds each call's tool result among the run's messages", () => {
    const results = toolResults([
      { role: "assistant", content: null, tool_calls: [{ id: "call-1", type: "function", function: { name: "ledger_transfer", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "call-1", name: "ledger_transfer", content: '{"status":"completed"}' },
      { role: "assistant", content: "done" },
    ]);
    expect([...results]).toEqual([["call-1", '{"status":"completed"}']]);
  });
});
