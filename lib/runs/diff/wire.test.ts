import { describe, expect, it } from "vitest";
import { alignSteps } from "./align";
import { FIELD_TEXT_CAP } from "./schemas";
import type { RunStep } from "./steps";
import { INLINE_ROWS_AFTER, INLINE_ROWS_BEFORE, inlineRows, sparseSteps, stepView } from "./wire";

const step = (i: number, result = `result ${i}`): RunStep => ({
  kind: "tool_call",
  path: "",
  agent: "bench",
  name: `tool_${i}`,
  fields: { arguments: `{"q":${i}}`, outcome: "ok", result },
  group: null,
  runId: "r",
  spanId: `s${i}`,
  seq: i,
  at: "2026-01-01T00:00:00.000Z",
  tokens: null,
  cost: null,
  latencyMs: 5,
  replayed: false,
});

const run = (n: number, vary: (i: number) => string | undefined = () => undefined) => Array.from({ length: n }, (_, i) => step(i, vary(i)));

describe("stepView", () => {
  it("drops what only the alignment uses and cuts long texts, saying how much was cut", () => {
    const view = stepView(step(1, "x".repeat(FIELD_TEXT_CAP + 1234)));
    expect(view).not.toHaveProperty("group");
    expect(view).not.toHaveProperty("seq");
    expect(view).not.toHaveProperty("at");
    expect(view.fields.result).toBe(`${"x".repeat(FIELD_TEXT_CAP)}… (1,234 more characters)`);
    expect(view.fields.arguments).toBe('{"q":1}');
    expect(view).toMatchObject({ kind: "tool_call", name: "tool_1", spanId: "s1", latencyMs: 5, replayed: false });
  });
});

describe("inlineRows", () => {
  it("sends every row of a small comparison", () => {
    const { rows, a, b } = alignSteps(run(30), run(30, (i) => (i === 12 ? "other" : undefined)));
    expect(inlineRows(rows, 12, a, b)).toEqual(rows.map((_, i) => i));
  });

  it("sends a window around the first divergence of a long comparison: a few rows before it, more after", () => {
    const { rows, a, b, firstDivergence } = alignSteps(run(3000), run(3000, (i) => (i === 1500 ? "other" : undefined)));
    const inline = inlineRows(rows, firstDivergence!, a, b);
    expect(inline[0]).toBe(1500 - INLINE_ROWS_BEFORE);
    expect(inline.at(-1)).toBe(1500 + INLINE_ROWS_AFTER - 1);
    expect(inline).toHaveLength(INLINE_ROWS_BEFORE + INLINE_ROWS_AFTER);
    // Contiguous, sorted.
    expect(inline.every((row, k) => k === 0 || row === inline[k - 1]! + 1)).toBe(true);
  });

  it("stops at the text budget but always sends the first divergence, with the rows after it first", () => {
    const big = "y".repeat(FIELD_TEXT_CAP);
    const { rows, a, b } = alignSteps(run(300, () => big), run(300, (i) => (i === 100 ? "other" : big)));
    const inline = inlineRows(rows, 100, a, b, 3 * 2 * FIELD_TEXT_CAP);
    expect(inline).toContain(100);
    expect(inline.length).toBeLessThanOrEqual(3);
    expect(inline.filter((r) => r > 100).length).toBeGreaterThanOrEqual(inline.filter((r) => r < 100).length);
    // Even a budget smaller than the divergence row itself sends that row.
    expect(inlineRows(rows, 100, a, b, 1)).toEqual([100]);
  });

  it("at the end of the rows, gives the rest of the window to the rows before", () => {
    const { rows, a, b } = alignSteps(run(500), run(500, (i) => (i === 499 ? "other" : undefined)));
    const inline = inlineRows(rows, 499, a, b);
    expect(inline.at(-1)).toBe(499);
    expect(inline[0]).toBe(499 - INLINE_ROWS_BEFORE);
  });

  it("sends nothing for no rows", () => {
    expect(inlineRows([], 0, [], [])).toEqual([]);
  });
});

describe("sparseSteps", () => {
  it("keeps the steps of the inline rows on their side, by their index, and nulls the others", () => {
    const { rows, a, b } = alignSteps(run(5), [step(0), step(9), step(1), step(2), step(3), step(4)]);
    const inline = [1, 2];
    const sideB = sparseSteps(b, rows, inline, "b");
    expect(sideB.map((s) => s?.name ?? null)).toEqual([null, "tool_9", "tool_1", null, null, null]);
    const sideA = sparseSteps(a, rows, inline, "a");
    // Row 1 is only in B: A sends the step of row 2 alone.
    expect(sideA.map((s) => s?.name ?? null)).toEqual([null, "tool_1", null, null, null]);
  });
});
