import { describe, expect, it } from "vitest";
import { inlineDiff, INLINE_DIFF_MAX_CHARS, INLINE_DIFF_MAX_EDITS } from "./text-diff";
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

  it("decides by size, not by the clock: the same pair gets the same answer every time, both sides marked", () => {
    // The compare page's current_time pair: side A (removed) and side B (added) each diff it on their own.
    const a = '{"iso":"2026-11-30T01:36:04.906Z","time_zone":"UTC","local":"30/11/2026, 01:36:04"}';
    const b = '{"iso":"2000-01-01T00:00:00.000Z","time_zone":"Europe/Paris","local":"01/01/2000, 01:00:00"}';
    const first = inlineDiff(a, b);
    expect(first?.some((p) => p.change === "removed") && first.some((p) => p.change === "added")).toBe(true);
    for (let i = 0; i < 20; i++) expect(inlineDiff(a, b)).toEqual(first);
  });

  it("declines a pair more different than its edit cap, at the largest size it takes, in well under a frame", () => {
    const words = (seed: number) => Array.from({ length: 3_000 }, (_, i) => `w${(i * seed) % 997}`).join(" ");
    const [a, b] = [words(7).slice(0, INLINE_DIFF_MAX_CHARS), words(13).slice(0, INLINE_DIFF_MAX_CHARS)];
    const started = performance.now();
    expect(inlineDiff(a, b), `more than ${INLINE_DIFF_MAX_EDITS} word edits`).toBeNull();
    // A hang detector, not a speed target (typically a few ms).
    expect(performance.now() - started).toBeLessThan(2_000);
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
