import { describe, expect, it } from "vitest";
import type { ComparedRun, RunComparison, StepView } from "@/lib/runs/diff/schemas";
import { missingChunks, STEP_CHUNK } from "./use-compared-steps";

const view = (i: number): StepView => ({ kind: "task", path: "", agent: "x", name: `s${i}`, fields: {}, runId: "r", spanId: null, tokens: null, cost: null, latencyMs: null, replayed: false });

function run(runId: string, count: number, carried: number[]): ComparedRun {
  const steps = Array.from({ length: count }, (_, i) => (carried.includes(i) ? view(i) : null));
  return { runId, agentName: "x", graphName: "g", graphVersion: { version: 1, variantOf: null }, task: "t", status: "completed", startedAt: "", endedAt: null, totals: { tokens: { inputTokens: 0, outputTokens: 0 }, cost: 0, latencyMs: null }, steps, version: "1.9", replayedSteps: 0 };
}

const comparison = (a: ComparedRun, b: ComparedRun): RunComparison => ({ a, b, rows: [], firstDivergence: null, counts: { equal: 0, changed: 0, onlyA: 0, onlyB: 0 }, delta: { tokens: 0, cost: null, latencyMs: null } });

describe("missingChunks", () => {
  const c = comparison(run("A", 250, [120, 121]), run("B", 130, []));
  const none = { a: new Map<number, StepView>(), b: new Map<number, StepView>() };

  it("asks once per chunk for the steps the comparison did not carry, the last chunk cut at the run's end", () => {
    const wanted = [
      { side: "a" as const, index: 5 },
      { side: "a" as const, index: 7 },
      { side: "a" as const, index: 120 },
      { side: "a" as const, index: 245 },
      { side: "b" as const, index: 125 },
    ];
    expect(missingChunks(c, none, new Set(), wanted)).toEqual([
      { side: "a", key: "a:0", from: 0, to: STEP_CHUNK },
      { side: "a", key: "a:2", from: 2 * STEP_CHUNK, to: 250 },
      { side: "b", key: "b:1", from: STEP_CHUNK, to: 130 },
    ]);
  });

  it("skips steps carried, loaded, out of range, or whose chunk was already asked for", () => {
    const loaded = { a: new Map([[3, view(3)]]), b: new Map<number, StepView>() };
    const wanted = [
      { side: "a" as const, index: 3 },
      { side: "a" as const, index: 121 },
      { side: "a" as const, index: 250 },
      { side: "b" as const, index: -1 },
      { side: "b" as const, index: 10 },
    ];
    expect(missingChunks(c, loaded, new Set(["b:0"]), wanted)).toEqual([]);
  });
});
