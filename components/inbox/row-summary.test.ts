import { describe, expect, it } from "vitest";
import { argumentSummary } from "./row-summary";

describe("argumentSummary", () => {
  it("puts amount-like arguments first, then the rest in their order", () => {
    expect(argumentSummary({ from_account: "savings", to_account: "operating", amount: 12 })).toBe("amount: 12 · from_account: savings · to_account: operating");
  });

  it("cuts long values so a row stays one line, and says when there is nothing", () => {
    const summary = argumentSummary({ note: "x".repeat(100), tags: ["a", "b"] });
    expect(summary).toBe(`note: ${"x".repeat(39)}… · tags: ["a","b"]`);
    expect(argumentSummary({})).toBe("no arguments");
  });
});
