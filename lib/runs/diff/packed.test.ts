import { describe, expect, it } from "vitest";
import { alignSteps } from "./align";
import { packComparison, unpackComparison } from "./packed";
import type { ComparedRun, RunComparison } from "./schemas";
import type { RunStep } from "./steps";
import { inlineRows, sparseSteps } from "./wire";

const step = (i: number, result = `result ${i}`): RunStep => ({ kind: "tool_call", path: "", agent: "x", name: `tool_${i % 7}`, fields: { result }, group: null, runId: "r", spanId: null, seq: i, at: "", tokens: null, cost: null, latencyMs: 5, replayed: false });

describe("packComparison", () => {
  it("comes back as the same comparison: rows of every status, steps present and absent", () => {
    const a = Array.from({ length: 3000 }, (_, i) => step(i));
    const b = [...a.slice(0, 100), { ...step(1000, "inserted"), name: "extra" }, ...a.slice(100, 200).map((s) => ({ ...s, fields: { result: "other" } })), ...a.slice(210)];
    const aligned = alignSteps(a, b);
    const inline = inlineRows(aligned.rows, aligned.firstDivergence ?? 0, aligned.a, aligned.b);
    const run = (side: "a" | "b"): ComparedRun => ({ runId: side, agentName: "x", graphName: null, graphVersion: { version: null, variantOf: null }, task: "t", status: "completed", startedAt: "s", endedAt: null, totals: { tokens: { inputTokens: 1, outputTokens: 2 }, cost: null, latencyMs: null }, steps: sparseSteps(aligned[side], aligned.rows, inline, side), version: "1.2", replayedSteps: 3 });
    const comparison: RunComparison = { a: run("a"), b: run("b"), rows: aligned.rows, firstDivergence: aligned.firstDivergence, counts: aligned.counts, delta: { tokens: 1, cost: null, latencyMs: null } };
    expect(new Set(comparison.rows.map((r) => r.status))).toEqual(new Set(["equal", "changed", "only_a", "only_b"]));
    const packed = packComparison(comparison);
    expect(unpackComparison(JSON.parse(JSON.stringify(packed)) as typeof packed)).toEqual(comparison);
    expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify(comparison).length / 2);
  });
});
