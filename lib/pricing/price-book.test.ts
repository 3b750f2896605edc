import { describe, expect, it } from "vitest";
import { addCosts, buildPriceBook, costAt, EMPTY_PRICE_BOOK, priceAt, priceChangesWithin, type PriceRates } from "./price-book";
import { basePricesOf } from "./defaults";

const rates = (input: number, output: number, extra: Partial<PriceRates> = {}): PriceRates => ({ input, output, cachedRead: null, cachedWrite: null, reasoning: null, ...extra });
const T1 = Date.UTC(2026, 0, 1);
const T2 = Date.UTC(2026, 5, 1);

describe("costAt", () => {
  const book = buildPriceBook(
    [{ model: "openai/gpt-4o", rates: rates(2.5, 10), source: "env" }],
    [
      { model: "openai/gpt-4o", point: { ...rates(2, 8), from: T2, source: "admin" } },
      { model: "openai/gpt-4o", point: { ...rates(3, 12), from: T1, source: "admin" } },
      { model: "anthropic/claude-sonnet-4", point: { ...rates(3, 15, { cachedRead: 0.3, cachedWrite: 3.75, reasoning: 20 }), from: T1, source: "admin" } },
      { model: "demo/assistant", point: { ...rates(1, 1), from: T1, source: "admin" } },
    ],
  );
  const usage = { inputTokens: 1_000_000, outputTokens: 100_000 };

  it("prices a step at the price in effect at its time", () => {
    expect(costAt(book, "openai/gpt-4o", usage, T1 - 1)).toBeCloseTo(3.5);
    expect(costAt(book, "openai/gpt-4o", usage, new Date(T1))).toBeCloseTo(4.2);
    expect(costAt(book, "openai/gpt-4o", usage, T2 + 1000)).toBeCloseTo(2.8);
  });

  it("is null (unpriced, never $0) for a model without a price then", () => {
    expect(costAt(book, "openai/unknown", usage, T2)).toBeNull();
    expect(costAt(book, "anthropic/claude-sonnet-4", usage, T1 - 1)).toBeNull();
    expect(costAt(EMPTY_PRICE_BOOK, "openai/gpt-4o", usage, T2)).toBeNull();
  });

  it("makes demo models free unless an admin priced them", () => {
    expect(costAt(book, "demo/assistant", usage, T1 - 1)).toBe(0);
    expect(costAt(book, "demo/assistant", usage, T1)).toBeCloseTo(1.1);
    expect(costAt(EMPTY_PRICE_BOOK, "demo/vision", usage, T1)).toBe(0);
  });

  it("prices cached and reasoning tokens at their own rates, or input/output when unset", () => {
    const all = { inputTokens: 0, outputTokens: 0, cachedReadTokens: 1_000_000, cachedWriteTokens: 1_000_000, reasoningTokens: 1_000_000 };
    expect(costAt(book, "anthropic/claude-sonnet-4", all, T2)).toBeCloseTo(0.3 + 3.75 + 20);
    expect(costAt(book, "openai/gpt-4o", all, T2)).toBeCloseTo(2 + 2 + 8);
  });

  it("says whether a model's price changes within a span of time", () => {
    expect(priceChangesWithin(book, "openai/gpt-4o", T1 - 10, T1 + 10)).toBe(true);
    expect(priceChangesWithin(book, "openai/gpt-4o", T1, T2 - 1)).toBe(false);
    expect(priceAt(book, "openai/gpt-4o", T2)?.input).toBe(2);
  });

  it("adds costs, an unknown part making the sum unknown", () => {
    expect(addCosts(1, 2)).toBe(3);
    expect(addCosts(1, null)).toBeNull();
  });
});

describe("base prices", () => {
  it("ships defaults and lets ZAP_MODEL_PRICES override them", () => {
    const base = basePricesOf({ "openai/gpt-4o": { input: 5, output: 20 }, "openai-compatible/llama": { input: 0.1, output: 0.2 } });
    const book = buildPriceBook(base, []);
    expect(book.models["openai/gpt-4o"]?.[0]).toMatchObject({ input: 5, output: 20, source: "env" });
    expect(book.models["openai-compatible/llama"]?.[0]?.source).toBe("env");
    expect(book.models["anthropic/claude-sonnet-4"]?.[0]).toMatchObject({ input: 3, output: 15, cachedRead: 0.3, cachedWrite: 3.75, source: "default" });
    expect(costAt(book, "anthropic/claude-sonnet-4", { inputTokens: 1_000_000, outputTokens: 0 }, 0)).toBe(3);
  });
});
