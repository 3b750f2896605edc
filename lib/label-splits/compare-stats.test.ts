import { describe, expect, it } from "vitest";
import { median, rateDifference, significanceNote, variantStats, welchDifference, type VariantRun } from "./compare-stats";

const run = (status: string, ms: number | null, score: number | null = null, cost: number | null = 0.01): VariantRun => ({ status, startedAtMs: 0, endedAtMs: ms, cost, score });

describe("a split's sides compared", () => {
  it("counts runs, success, median latency, cost and mean score per side", () => {
    const stats = variantStats("base", 3, [run("completed", 100, 1), run("completed", 300, 0.5), run("failed", 200), run("thinking", null)]);
    expect(stats).toMatchObject({ runs: 4, ended: 3, completed: 2, medianLatencyMs: 200, scored: 2, meanScore: 0.75 });
    expect(stats.successRate).toBeCloseTo(2 / 3);
    expect(stats.cost).toBeCloseTo(0.04);
    expect(variantStats("split", 4, [run("completed", 10, null, null)]).cost).toBeNull();
    expect(variantStats("split", 4, []).meanScore).toBeNull();
    expect(median([])).toBeNull();
    expect(median([1, 2, 3, 4])).toBe(2.5);
  });

  it("gives each online evaluator's count and mean beside the side's mean, by name", () => {
    const scored = (quality: number | null, tone: number | null): VariantRun => ({
      ...run("completed", 10, 0.5),
      evaluatorScores: { ...(quality === null ? {} : { quality }), ...(tone === null ? {} : { tone }) },
    });
    const stats = variantStats("split", 4, [scored(1, 0.5), scored(0.5, null), scored(null, null), run("failed", 20)]);
    expect(stats.evaluators).toEqual([
      { name: "quality", scored: 2, meanScore: 0.75 },
      { name: "tone", scored: 1, meanScore: 0.5 },
    ]);
    expect(variantStats("base", 3, [run("completed", 10, 1)]).evaluators).toEqual([]);
  });

  it("calls a clear score difference beyond noise and a small sample within it", () => {
    const low = Array.from({ length: 30 }, (_, i) => 0.3 + (i % 3) * 0.05);
    const high = Array.from({ length: 30 }, (_, i) => 0.8 + (i % 3) * 0.05);
    const diff = welchDifference(low, high);
    expect(diff?.estimate).toBeCloseTo(0.5);
    const base = variantStats("base", 3, low.map((s) => run("completed", 10, s)));
    const split = variantStats("split", 4, high.map((s) => run("completed", 10, s)));
    expect(significanceNote({ stats: base, scores: low }, { stats: split, scores: high })).toMatch(/^Mean score v4 against v3: \+0\.50 .* a difference beyond noise\.$/);
    expect(significanceNote({ stats: base, scores: [0.5, 0.7] }, { stats: split, scores: [0.6, 0.4] })).toMatch(/within noise so far/);
  });

  it("says there are no scores yet and falls back to success rates", () => {
    const base = variantStats("base", 3, [run("completed", 10)]);
    const split = variantStats("split", 4, [run("failed", 10)]);
    expect(significanceNote({ stats: base, scores: [] }, { stats: split, scores: [] })).toMatch(/^No scores yet; success rate v4 against v3: -1\.00/);
    expect(significanceNote({ stats: variantStats("base", 3, []), scores: [] }, { stats: split, scores: [] })).toBe("No scores yet; no run has ended on both sides yet.");
    expect(rateDifference({ completed: 0, ended: 0 }, { completed: 1, ended: 1 })).toBeNull();
  });
});
