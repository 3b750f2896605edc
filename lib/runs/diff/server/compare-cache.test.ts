import { describe, expect, it } from "vitest";
import type { CompareStepsPage, CompareStepsQuery, RunComparison, StepView } from "../schemas";
import { CompareCache, type CompareSources } from "./compare-cache";

const view = (i: number): StepView => ({ kind: "tool_call", path: "", agent: "x", name: `t${i}`, fields: { result: `r${i}` }, runId: "r", spanId: null, tokens: null, cost: null, latencyMs: null, replayed: false });

/** Stand-in reads counting their calls; `states` says each run's tree state (null: still running). */
function sources(states: Record<string, string | null>, steps = 250) {
  const calls = { compareRuns: 0, compareSteps: 0 };
  const all = Array.from({ length: steps }, (_, i) => view(i));
  const src: CompareSources = {
    treeState: async (runId) => states[runId] ?? null,
    compareRuns: async (a, b) => {
      calls.compareRuns++;
      return { a: { runId: a, steps: [] }, b: { runId: b, steps: [] }, rows: [], firstDivergence: null, counts: { equal: 0, changed: 0, onlyA: 0, onlyB: 0 }, delta: { tokens: 0, cost: 0, latencyMs: 0 } } as unknown as RunComparison;
    },
    compareSteps: async (query: CompareStepsQuery): Promise<CompareStepsPage> => {
      calls.compareSteps++;
      if (query.version !== undefined && query.version !== `v-${states[query.run]}`) throw new Error("409");
      return { runId: query.run, version: `v-${states[query.run]}`, total: all.length, from: query.from, steps: all.slice(query.from, query.to) };
    },
  };
  return { src, calls, all };
}

describe("CompareCache", () => {
  it("reads a pair of finished trees once, and again once either tree's state changes", async () => {
    const cache = new CompareCache();
    const states: Record<string, string | null> = { a: "a:completed:10", b: "b:completed:12" };
    const { src, calls } = sources(states);
    const first = await cache.compareRuns(src, "a", "b", "p");
    await cache.settled();
    expect(await cache.compareRuns(src, "a", "b", "p")).toBe(first);
    expect(calls.compareRuns).toBe(1);
    states.b = "b:completed:13";
    await cache.compareRuns(src, "a", "b", "p");
    await cache.settled();
    expect(calls.compareRuns).toBe(2);
    // Another scope (price table) is another answer.
    await cache.compareRuns(src, "a", "b", "q");
    expect(calls.compareRuns).toBe(3);
  });

  it("never caches a tree with a run still going", async () => {
    const cache = new CompareCache();
    const { src, calls } = sources({ a: "a:completed:10", b: null });
    await cache.compareRuns(src, "a", "b", "p");
    await cache.settled();
    await cache.compareRuns(src, "a", "b", "p");
    expect(calls.compareRuns).toBe(2);
    await cache.compareSteps(src, { run: "b", from: 0, to: 10 }, "p");
    await cache.compareSteps(src, { run: "b", from: 0, to: 10 }, "p");
    expect(calls.compareSteps).toBe(2);
  });

  it("does not keep what was read while the tree moved on", async () => {
    const cache = new CompareCache();
    const states: Record<string, string | null> = { a: "a:completed:10", b: "b:completed:12" };
    const { src, calls } = sources(states);
    const compare = src.compareRuns;
    src.compareRuns = async (a, b) => {
      const c = await compare(a, b);
      states.a = "a:completed:11";
      return c;
    };
    await cache.compareRuns(src, "a", "b", "p");
    await cache.settled();
    states.a = "a:completed:10";
    await cache.compareRuns(src, "a", "b", "p");
    expect(calls.compareRuns).toBe(2);
  });

  it("answers pages of a finished tree's steps from one read, as the uncached read would", async () => {
    const cache = new CompareCache();
    const { src, calls, all } = sources({ a: "a:completed:10" });
    const page = await cache.compareSteps(src, { run: "a", from: 100, to: 200, version: "v-a:completed:10" }, "p");
    expect(page).toEqual({ runId: "a", version: "v-a:completed:10", total: 250, from: 100, steps: all.slice(100, 200) });
    expect(await cache.compareSteps(src, { run: "a", from: 200, to: 300 }, "p")).toEqual({ runId: "a", version: "v-a:completed:10", total: 250, from: 200, steps: all.slice(200, 250) });
    expect(calls.compareSteps).toBe(1);
    // Another version: the uncached read answers (its 409).
    await expect(cache.compareSteps(src, { run: "a", from: 0, to: 10, version: "old" }, "p")).rejects.toThrow("409");
  });

  it("reads a tree once for pages asked for together", async () => {
    const cache = new CompareCache();
    const { src, calls } = sources({ a: "a:completed:10" });
    const pages = await Promise.all([0, 100, 200].map((from) => cache.compareSteps(src, { run: "a", from, to: from + 100 }, "p")));
    expect(pages.map((p) => p.steps.length)).toEqual([100, 100, 50]);
    expect(calls.compareSteps).toBe(1);
  });
});
