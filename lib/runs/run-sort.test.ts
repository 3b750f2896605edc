// The runs list's order: each sort ranks by the figure the list shows, ties
// newest first, an unpriced cost last either way; a column's sort button
// starts largest first and flips on a second click.
import { describe, expect, it } from "vitest";
import { compareRuns, nextSort, sortNeedsUsage, type RunSortKey } from "./run-sort";

const NOW = 1_000_000;
const run = (id: string, startMs: number, endMs: number | null, tokens = 0, cost: number | null = 0): RunSortKey => ({ id, startMs, endMs, tokens, cost });
const ids = (keys: RunSortKey[]) => keys.map((k) => k.id);

describe("compareRuns", () => {
  const quick = run("quick", 900_000, 900_010, 500, 0.5);
  const slow = run("slow", 800_000, 860_000, 100, 0.02);
  const working = run("working", 700_000, null, 9_000, null);
  const all = [quick, slow, working];

  it("by duration: to the end, or to now while it works", () => {
    expect(ids([...all].sort(compareRuns("duration", "desc", NOW)))).toEqual(["working", "slow", "quick"]);
    expect(ids([...all].sort(compareRuns("duration", "asc", NOW)))).toEqual(["quick", "slow", "working"]);
  });

  it("by tokens and by cost, which rank differently", () => {
    expect(ids([...all].sort(compareRuns("tokens", "desc", NOW)))).toEqual(["working", "quick", "slow"]);
    expect(ids([...all].sort(compareRuns("cost", "desc", NOW)))).toEqual(["quick", "slow", "working"]);
  });

  it("puts an unpriced cost last in both directions (unpriced is not $0)", () => {
    const free = run("free", 600_000, 600_001, 10, 0);
    expect(ids([working, free, slow].sort(compareRuns("cost", "asc", NOW)))).toEqual(["free", "slow", "working"]);
    expect(ids([working, free, slow].sort(compareRuns("cost", "desc", NOW)))).toEqual(["slow", "free", "working"]);
  });

  it("breaks ties newest first, then by id", () => {
    const a = run("a", 100, 200, 5);
    const b = run("b", 300, 400, 5);
    const c = run("c", 300, 400, 5);
    expect(ids([a, c, b].sort(compareRuns("tokens", "desc", NOW)))).toEqual(["b", "c", "a"]);
    expect(ids([a, c, b].sort(compareRuns("started", "asc", NOW)))).toEqual(["a", "b", "c"]);
  });
});

describe("nextSort", () => {
  it("starts a column largest first and flips it on the next click", () => {
    expect(nextSort({}, "cost")).toEqual({ sort: "cost", order: "desc" });
    expect(nextSort({ sort: "cost", order: "desc" }, "cost")).toEqual({ sort: "cost", order: "asc" });
    expect(nextSort({ sort: "cost", order: "asc" }, "duration")).toEqual({ sort: "duration", order: "desc" });
    // The default order is newest first: a click on Started shows the oldest first.
    expect(nextSort({}, "started")).toEqual({ sort: "started", order: "asc" });
  });

  it("knows which sorts read the trees' usage", () => {
    expect([sortNeedsUsage("tokens"), sortNeedsUsage("cost"), sortNeedsUsage("duration"), sortNeedsUsage(undefined)]).toEqual([true, true, false, false]);
  });
});
