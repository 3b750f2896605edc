import { describe, expect, it } from "vitest";
import { snippetParts } from "./snippet";
import { hitHref, searchQuerySchema, searchTerms, textMatches } from "./schemas";

describe("searchTerms", () => {
  it("keeps letters and digits only, lowercased, so no query text becomes FTS or tsquery syntax", () => {
    expect(searchTerms('Order #4417 "AND" OR NEAR(x*) -- \' ; ')).toEqual(["order", "4417", "and", "or", "near", "x"]);
    expect(searchTerms("Zürich zürich")).toEqual(["zürich"]);
  });
});

describe("searchQuerySchema", () => {
  it("refuses empty, symbol-only and oversized queries", () => {
    expect(searchQuerySchema.safeParse("  ").success).toBe(false);
    expect(searchQuerySchema.safeParse('"*()"').success).toBe(false);
    expect(searchQuerySchema.safeParse("x".repeat(201)).success).toBe(false);
    expect(searchQuerySchema.safeParse(Array.from({ length: 13 }, (_, i) => `w${i}`).join(" ")).success).toBe(false);
    expect(searchQuerySchema.parse(" order 4417 ")).toBe("order 4417");
  });
});

describe("snippetParts", () => {
  it("flags the matched words, whatever their case", () => {
    expect(snippetParts("Customer asks about ORDER 4417 today", "order 4417")).toEqual([
      { text: "Customer asks about ", hit: false },
      { text: "ORDER", hit: true },
      { text: " ", hit: false },
      { text: "4417", hit: true },
      { text: " today", hit: false },
    ]);
  });

  it("keeps markup as text (the parts are rendered as text nodes)", () => {
    const parts = snippetParts('<img src=x onerror="alert(1)"> order 4417', "4417");
    expect(parts.map((p) => p.text).join("")).toBe('<img src=x onerror="alert(1)"> order 4417');
    expect(parts.filter((p) => p.hit).map((p) => p.text)).toEqual(["4417"]);
  });

  it("shows a window around the first match of a long text", () => {
    const text = `${"lorem ipsum ".repeat(100)}refund for order 4417 ${"dolor sit ".repeat(100)}`;
    const parts = snippetParts(text, "4417", 80);
    const joined = parts.map((p) => p.text).join("");
    expect(joined.startsWith("…")).toBe(true);
    expect(joined.endsWith("…")).toBe(true);
    expect(joined.length).toBeLessThanOrEqual(82);
    expect(parts.some((p) => p.hit && p.text === "4417")).toBe(true);
  });

  it("does not flag a word that merely contains a term", () => {
    expect(snippetParts("orders 44170", "order 4417").some((p) => p.hit)).toBe(false);
  });
});

describe("hitHref", () => {
  it("links the run holding the text, with its span", () => {
    expect(hitHref({ rootRunId: "r", runId: "r/sub 1", spanId: "s3" })).toBe("/runs/r%2Fsub%201?span=s3");
    expect(hitHref({ rootRunId: "r", runId: "r", spanId: null })).toBe("/runs/r");
  });
});

describe("textMatches", () => {
  it("matches whole words, every term, case and accents folded (as the indexes do)", () => {
    expect(textMatches("Refund for ORDER 4417 in Zürich", "order 4417")).toBe(true);
    expect(textMatches("Refund for ORDER 4417 in Zürich", "zurich")).toBe(true);
    expect(textMatches("orders 44170", "order 4417")).toBe(false);
    expect(textMatches("order 1", "order 4417")).toBe(false);
  });
});
