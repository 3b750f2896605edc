import { describe, expect, it } from "vitest";
import { limitName, limitReached, measureOf, refusalMessage, scopesOf, windowOf } from "./rules";
import { setSpendLimitInput } from "./schemas";

describe("windowOf", () => {
  it("a day is the UTC calendar day holding the moment", () => {
    const w = windowOf("day", new Date("2026-11-30T23:59:59.999Z"));
    expect(w.start.toISOString()).toBe("2026-11-30T00:00:00.000Z");
    expect(w.end.toISOString()).toBe("2026-12-01T00:00:00.000Z");
  });

  it("a month is the UTC calendar month, across a year's end", () => {
    const w = windowOf("month", new Date("2026-12-31T12:00:00Z"));
    expect(w.start.toISOString()).toBe("2026-12-01T00:00:00.000Z");
    expect(w.end.toISOString()).toBe("2027-01-01T00:00:00.000Z");
  });
});

describe("scopesOf", () => {
  it("a start answers to the workspace, its graph and its starter, and its API key only when it came with one", () => {
    expect(scopesOf({ graph: "g", userId: "u", apiKeyId: null })).toEqual([
      { scope: "workspace", scopeId: "" },
      { scope: "graph", scopeId: "g" },
      { scope: "user", scopeId: "u" },
    ]);
    expect(scopesOf({ graph: "g", userId: "u", apiKeyId: "k" })).toContainEqual({ scope: "api_key", scopeId: "k" });
  });
});

describe("measureOf and limitReached", () => {
  const price = (model: string, usage: { inputTokens: number; outputTokens: number }) => (model === "priced" ? (usage.inputTokens + usage.outputTokens) / 1000 : null);

  it("adds priced hours in dollars and keeps unpriced usage apart, never as $0", () => {
    const measure = measureOf(
      [
        { model: "priced", firstMs: 0, inputTokens: 1000, outputTokens: 500 },
        { model: "mystery", firstMs: 0, inputTokens: 70, outputTokens: 30 },
        { model: "priced", firstMs: 3_600_000, inputTokens: 500, outputTokens: 0 },
      ],
      price,
    );
    expect(measure).toEqual({ pricedUsd: 2, unpricedTokens: 100, unpricedModels: ["mystery"] });
  });

  it("prices each hour at its own time", () => {
    const seen: number[] = [];
    measureOf([{ model: "m", firstMs: 42, inputTokens: 1, outputTokens: 1 }], (_m, _u, at) => (seen.push(at), 0));
    expect(seen).toEqual([42]);
  });

  it("a limit is reached at its amount, and a $0 limit refuses at once", () => {
    const spend = { pricedUsd: 5, unpricedTokens: 0, unpricedModels: [] };
    expect(limitReached(5, spend)).toBe(true);
    expect(limitReached(5.01, spend)).toBe(false);
    expect(limitReached(0, { ...spend, pricedUsd: 0 })).toBe(true);
  });

  it("unpriced usage alone reaches no limit (its cost is unknown)", () => {
    expect(limitReached(1, { pricedUsd: 0, unpricedTokens: 1_000_000, unpricedModels: ["x"] })).toBe(false);
  });
});

describe("the refusal", () => {
  it("is one line naming the limit, what was spent and when runs start again", () => {
    const message = refusalMessage({ scope: "graph", scopeLabel: "support", period: "day", amountUsd: 5 }, { pricedUsd: 5.5, unpricedTokens: 0, unpricedModels: [] }, new Date("2026-12-01T00:00:00Z"));
    expect(message).toBe('Spend limit reached: $5.50 spent of the daily spend limit of graph "support" ($5.00); new runs are refused until 2026-12-01 00:00 UTC or an admin raises the limit.');
    expect(message).not.toContain("\n");
  });

  it("names every scope", () => {
    expect(limitName({ scope: "workspace", scopeLabel: "Workspace", period: "month", amountUsd: 100 })).toBe("the monthly spend limit of the workspace ($100.00)");
    expect(limitName({ scope: "user", scopeLabel: "ann@x.org", period: "day", amountUsd: 1 })).toBe("the daily spend limit of user ann@x.org ($1.00)");
    expect(limitName({ scope: "api_key", scopeLabel: "ci", period: "day", amountUsd: 1 })).toBe('the daily spend limit of API key "ci" ($1.00)');
  });
});

describe("setSpendLimitInput", () => {
  it("takes a workspace limit without a scope id and a graph limit with one", () => {
    expect(setSpendLimitInput.safeParse({ scope: "workspace", period: "day", amountUsd: 10 }).success).toBe(true);
    expect(setSpendLimitInput.safeParse({ scope: "graph", scopeId: "support", period: "month", amountUsd: 0 }).success).toBe(true);
  });

  it("refuses unknown keys, a workspace scope id, negative and huge amounts, and a graph without a name", () => {
    expect(setSpendLimitInput.safeParse({ scope: "workspace", scopeId: "x", period: "day", amountUsd: 10 }).success).toBe(false);
    expect(setSpendLimitInput.safeParse({ scope: "workspace", period: "day", amountUsd: 10, onReach: "stop" }).success).toBe(false);
    expect(setSpendLimitInput.safeParse({ scope: "workspace", period: "day", amountUsd: -1 }).success).toBe(false);
    expect(setSpendLimitInput.safeParse({ scope: "workspace", period: "week", amountUsd: 1 }).success).toBe(false);
    expect(setSpendLimitInput.safeParse({ scope: "user", scopeId: "u", period: "day", amountUsd: 2_000_000 }).success).toBe(false);
    expect(setSpendLimitInput.safeParse({ scope: "graph", period: "day", amountUsd: 1 }).success).toBe(false);
  });
});

describe("onReached (what a working run does once its limit is reached)", () => {
  it("defaults to ask, takes ask or stop, and refuses anything else", () => {
    expect(setSpendLimitInput.parse({ scope: "workspace", period: "day", amountUsd: 1 })).toMatchObject({ onReached: "ask" });
    expect(setSpendLimitInput.parse({ scope: "graph", scopeId: "support", period: "day", amountUsd: 1, onReached: "stop" })).toMatchObject({ onReached: "stop" });
    const wrong = setSpendLimitInput.safeParse({ scope: "workspace", period: "day", amountUsd: 1, onReached: "pause" });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues[0]?.path).toEqual(["onReached"]);
  });
});
