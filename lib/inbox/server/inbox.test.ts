import { describe, expect, it } from "vitest";
import { chainOf, precedingText } from "./inbox";

describe("inbox enrichment", () => {
  it("chains a sub-run to its root, root first", () => {
    const runs = new Map([
      ["root", { id: "root", parentRunId: null, agentName: "lead" }],
      ["mid", { id: "mid", parentRunId: "root", agentName: "payer" }],
      ["leaf", { id: "leaf", parentRunId: "mid", agentName: "clerk" }],
    ]);
    expect(chainOf("leaf", runs, "clerk").map((l) => l.agentName)).toEqual(["lead", "payer", "clerk"]);
    expect(chainOf("unknown", runs, "solo")).toEqual([{ runId: "unknown", agentName: "solo" }]);
  });

  it("finds the assistant message that made the call", () => {
    const rows = [
      { data: JSON.stringify({ role: "assistant", content: "Moving 10 to operating.", tool_calls: [{ id: "call-2", type: "function", function: { name: "t", arguments: "{}" } }] }) },
      { data: JSON.stringify({ role: "assistant", content: "", tool_calls: [{ id: "call-1", type: "function", function: { name: "t", arguments: "{}" } }] }) },
    ];
    expect(precedingText(rows, "call-2")).toEqual({ found: true, text: "Moving 10 to operating." });
    expect(precedingText(rows, "call-1")).toEqual({ found: true, text: null });
    expect(precedingText(rows, "call-9")).toEqual({ found: false, text: null });
  });
});
