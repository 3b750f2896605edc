import { describe, expect, it } from "vitest";
import { parsePriceTable } from "../config/price-table";
import { priceBookOf } from "../pricing/price-book";
import { costAt, formatCost } from "./pricing";

describe("price table", () => {
  it("parses model=input/output entries and prices usage per million tokens", () => {
    const parsed = parsePriceTable("openai/gpt-4o=2.5/10, anthropic/claude-sonnet-4=3/15");
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const book = priceBookOf(parsed.table);
    const now = Date.now();
    expect(costAt(book, "openai/gpt-4o", { inputTokens: 1_000_000, outputTokens: 100_000 }, now)).toBeCloseTo(3.5);
    expect(costAt(book, "demo/triage", { inputTokens: 5000, outputTokens: 5000 }, now)).toBe(0);
    expect(costAt(book, "openai/unknown", { inputTokens: 1, outputTokens: 1 }, now)).toBeNull();
  });

  it("names the entry it cannot read", () => {
    expect(parsePriceTable("openai/gpt-4o=2.5")).toEqual({ ok: false, entry: "openai/gpt-4o=2.5" });
    expect(formatCost(null), "a model without a price is never $0").toBe("unpriced");
    expect(formatCost(0)).toBe("$0");
  });
});
