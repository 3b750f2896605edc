// A builder writes an approval rule `*a*a*a*a*a*a*a*a*b` and a model names a
// tool `aaaa…` (10,000 characters). The old matcher compiled the glob to
// /^.*a.*a.*a…b$/, which backtracks through every way of splitting the name
// between the stars (measured with the old regex: 40 a's 0.4 s, 60 a's 16 s; a
// 10,000-character name would hold a worker's workflow thread for ever). The
// linear matcher answers in about a millisecond; the bound is 2 s, far above a
// loaded machine's worst and far below the backtracking regex's seconds.
import { describe, expect, it } from "vitest";
import { matchesGlob } from "./glob";

describe("approval patterns are matched without backtracking", () => {
  it("*a*a*a*a*a*a*a*a*b against 10,000 a's is false at once (under 2 s, where backtracking takes minutes)", () => {
    const name = "a".repeat(10_000);
    const started = performance.now();
    const matched = matchesGlob("*a*a*a*a*a*a*a*a*b", name);
    const elapsed = performance.now() - started;
    expect(matched).toBe(false);
    expect(elapsed, `took ${elapsed.toFixed(1)} ms`).toBeLessThan(2_000);
  });

  it("a pattern of many stars against a long near-miss stays fast", () => {
    const started = performance.now();
    expect(matchesGlob(`${"*a".repeat(200)}*c`, `${"a".repeat(5_000)}b`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
