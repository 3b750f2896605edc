import { describe, expect, it } from "vitest";
import { rollUp, ZERO_USAGE } from "./usage";
import type { UsageCost } from "../schemas";

const u = (input: number, output: number, cost: number | null = 0): UsageCost => ({ tokens: { inputTokens: input, outputTokens: output }, cost });

describe("rollUp", () => {
  it("adds each descendant's own usage once: self + sub-runs = total", () => {
    const runs = [
      { id: "root", parentRunId: null },
      { id: "a", parentRunId: "root" },
      { id: "b", parentRunId: "root" },
      { id: "a1", parentRunId: "a" },
    ];
    const own = new Map([["root", u(10, 1)], ["a", u(20, 2)], ["b", u(30, 3)], ["a1", u(40, 4)]]);
    const totals = rollUp(runs, own);
    expect(totals.get("root")?.tokens).toEqual({ inputTokens: 100, outputTokens: 10 });
    expect(totals.get("a")?.tokens).toEqual({ inputTokens: 60, outputTokens: 6 });
    expect(totals.get("b")?.tokens).toEqual({ inputTokens: 30, outputTokens: 3 });
  });

  it("makes the total's cost unknown when any part has no price", () => {
    const runs = [{ id: "root", parentRunId: null }, { id: "a", parentRunId: "root" }];
    const totals = rollUp(runs, new Map([["root", u(1, 1, 0.5)], ["a", u(1, 1, null)]]));
    expect(totals.get("root")?.cost).toBeNull();
    expect(totals.get("a")?.cost).toBeNull();
    expect(rollUp([{ id: "x", parentRunId: null }], new Map()).get("x")).toEqual(ZERO_USAGE);
  });
});
