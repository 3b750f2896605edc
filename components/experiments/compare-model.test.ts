import { describe, expect, it } from "vitest";
import type { ExperimentResultRow } from "@/lib/experiments/schemas";
import type { Score } from "@/lib/experiments/scoring/types";
import { buildRows, classify, diffPair, filterRows, summarize } from "./compare-model";

const targets = [
  { label: "triage v1", graphName: "triage", version: 1 },
  { label: "triage v2", graphName: "triage", version: 2 },
];

function result(itemId: string, position: number, targetIndex: number, scores: Score[], extra: Partial<ExperimentResultRow> = {}): ExperimentResultRow {
  return { itemId, position, task: `task ${position}`, tags: [], targetIndex, runId: `run-${itemId}-${targetIndex}`, status: "scored", scores, latencyMs: 100, inputTokens: 10, outputTokens: 5, costUsd: 0.001, ...extra };
}
const pass = (scorer: string, value = 1): Score => ({ scorer, value, pass: true, detail: "" });
const fail = (scorer: string, value = 0): Score => ({ scorer, value, pass: false, detail: "" });
const undecided = (scorer: string, value: number): Score => ({ scorer, value, pass: null, detail: "" });

describe("classify against the baseline", () => {
  it("a pass that became a fail regressed, the reverse improved, and the scorer is named", () => {
    expect(classify(result("i", 0, 0, [pass("exact")]), result("i", 0, 1, [fail("exact")]), "all")).toEqual({ change: "regressed", reasons: ["exact: pass → fail"] });
    expect(classify(result("i", 0, 0, [fail("exact")]), result("i", 0, 1, [pass("exact")]), "all")).toEqual({ change: "improved", reasons: ["exact: fail → pass"] });
  });

  it("a regression on any scorer wins over an improvement on another; focusing one scorer ignores the others", () => {
    const base = result("i", 0, 0, [pass("exact"), fail("contains")]);
    const cell = result("i", 0, 1, [fail("exact"), pass("contains")]);
    expect(classify(base, cell, "all").change).toBe("regressed");
    expect(classify(base, cell, "contains").change).toBe("improved");
  });

  it("undecided scores compare by value, beyond a rounding tolerance", () => {
    expect(classify(result("i", 0, 0, [undecided("judge", 0.8)]), result("i", 0, 1, [undecided("judge", 0.5)]), "all").change).toBe("regressed");
    expect(classify(result("i", 0, 0, [undecided("judge", 0.8)]), result("i", 0, 1, [undecided("judge", 0.8004)]), "all").change).toBe("same");
  });

  it("a failed run regresses against a scored one; unfinished cells are pending", () => {
    expect(classify(result("i", 0, 0, [pass("exact")]), result("i", 0, 1, [], { status: "failed" }), "all").change).toBe("regressed");
    expect(classify(result("i", 0, 0, [pass("exact")]), result("i", 0, 1, [], { status: "running" }), "all").change).toBe("pending");
    expect(classify(undefined, result("i", 0, 1, [pass("exact")]), "all").change).toBe("pending");
  });
});

describe("rows, filters, summary", () => {
  const results = [
    result("a", 0, 0, [pass("exact")], { tags: ["billing"] }),
    result("a", 0, 1, [fail("exact")], { tags: ["billing"] }),
    result("b", 1, 1, [pass("exact")]),
    result("b", 1, 0, [fail("exact")]),
    result("c", 2, 0, [pass("exact")], { tags: ["billing"] }),
    result("c", 2, 1, [pass("exact")], { tags: ["billing"] }),
  ];
  const rows = buildRows({ targets }, results, "all");

  it("one row per item in position order, one cell per target whatever the result order", () => {
    expect(rows.map((row) => row.itemId)).toEqual(["a", "b", "c"]);
    expect(rows[1]?.cells.map((cell) => cell.result?.runId)).toEqual(["run-b-0", "run-b-1"]);
    expect(rows.map((row) => [row.regressed, row.improved])).toEqual([
      [true, false],
      [false, true],
      [false, false],
    ]);
  });

  it("filters by regressions, improvements and tag", () => {
    expect(filterRows(rows, "regressions", null).map((row) => row.itemId)).toEqual(["a"]);
    expect(filterRows(rows, "improvements", null).map((row) => row.itemId)).toEqual(["b"]);
    expect(filterRows(rows, "all", "billing").map((row) => row.itemId)).toEqual(["a", "c"]);
    expect(filterRows(rows, "improvements", "billing")).toEqual([]);
  });

  it("the diff link pairs the baseline with the regressed target", () => {
    expect(diffPair(rows[0]!)).toEqual({ a: "run-a-0", b: "run-a-1" });
  });

  it("summarizes per target: pass rate and mean with intervals, totals, regressions and improvements", () => {
    const [base, next] = summarize({ targets, scorers: [{ kind: "exact" }] }, results, rows, ["exact"]);
    expect(base).toMatchObject({ scored: 3, failed: 0, regressions: null, latencyMs: 300, inputTokens: 30, costUsd: 0.003 });
    expect(base?.scorers[0]).toMatchObject({ scorer: "exact", passes: 2, decided: 3 });
    expect(base?.scorers[0]?.passRate?.estimate).toBeCloseTo(2 / 3);
    expect(base?.scorers[0]?.mean?.estimate).toBeCloseTo(2 / 3);
    expect(next).toMatchObject({ regressions: 1, improvements: 1 });
    expect(base?.scorers[0]?.delta).toBeNull();
    // Pairs (1→0), (0→1), (1→1): mean change 0 over three items.
    expect(next?.scorers[0]?.delta).toMatchObject({ estimate: 0, n: 3 });
  });
});
