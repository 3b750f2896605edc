import { describe, expect, it } from "vitest";
import { inlineDiff, INLINE_DIFF_MAX_CHARS } from "./text-diff";
import { deltaOf, formatSigned, formatSignedCost, stepTotals } from "./totals";
import type { RunStep } from "./steps";

describe("inlineDiff", () => {
  it("marks the words only in A as removed and only in B as added", () => {
    const parts = inlineDiff('{"amount":5,"to":"savings"}', '{"amount":50,"to":"savings"}');
    expect(parts?.filter((p) => p.change === "removed").map((p) => p.value)).toEqual(["5"]);
    expect(parts?.filter((p) => p.change === "added").map((p) => p.value)).toEqual(["50"]);
    expect(parts?.map((p) => (p.change === "added" ? "" : p.value)).join("")).toBe('{"amount":5,"to":"savings"}');
  });

  it("declines texts past the cap", () => {
    expect(inlineDiff("a".repeat(INLINE_DIFF_MAX_CHARS + 1), "b")).toBeNull();
  });
});

describe("totals", () => {
  const call = (input: number, output: number, cost: number | null): RunStep => ({ kind: "model_call", path: "", agent: "x", name: "", fields: {}, group: null, runId: "r", spanId: null, seq: 1, at: "", tokens: { inputTokens: input, outputTokens: output }, cost, latencyMs: 1, replayed: false });
  it("sums model calls' tokens and costs; an unknown cost makes the total unknown", () => {
    expect(stepTotals([call(10, 5, 0.5), call(1, 1, 0.25)])).toEqual({ tokens: { inputTokens: 11, outputTokens: 6 }, cost: 0.75 });
    expect(stepTotals([call(10, 5, 0.5), call(1, 1, null)]).cost).toBeNull();
  });
  it("formats signed deltas", () => {
    expect(deltaOf(3, 1)).toBe(-2);
    expect(deltaOf(null, 1)).toBeNull();
    expect(formatSigned(1200, " tok")).toBe("+1,200 tok");
    expect(formatSigned(-35)).toBe("−35");
    expect(formatSignedCost(-0.5)).toBe("−$0.50");
    expect(formatSignedCost(0.001)).toBe("+$0.0010");
  });
});
