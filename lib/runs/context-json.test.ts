import { describe, expect, it } from "vitest";
import { contextKeySuggestions, keyPathAt, missingPlaceholders, parseJsonObject } from "./context-json";

describe("parseJsonObject", () => {
  it("reads an empty text as an empty context", () => {
    expect(parseJsonObject("  \n")).toEqual({ ok: true, value: {} });
  });

  it("names the line and column where the text stops parsing, also when the engine gives no position", () => {
    const truncated = parseJsonObject('{\n  "company": ');
    expect(truncated, "end of input has no position in V8's message").toEqual({ ok: false, error: "Invalid JSON at line 2, column 14", from: 15 });
    const typo = parseJsonObject('{\n  "a": tru\n}');
    expect(typo.ok).toBe(false);
    if (!typo.ok) expect(typo.error).toBe("Invalid JSON at line 2, column 8");
  });

  it("refuses arrays and scalars: the context must be an object", () => {
    for (const text of ["[1]", "3", '"x"', "null"]) {
      const result = parseJsonObject(text);
      expect(result.ok, text).toBe(false);
      if (!result.ok) expect(result.error).toContain("must be a JSON object");
    }
  });
});

describe("missingPlaceholders", () => {
  it("lists placeholders that are absent or null, nested ones included", () => {
    const placeholders = ["context.company", "context.customer.name", "context.tier"];
    expect(missingPlaceholders({ company: "Acme", customer: { name: null }, tier: 0 }, placeholders)).toEqual(["context.customer.name"]);
    expect(missingPlaceholders({ customer: "Ada" }, placeholders)).toEqual(["context.company", "context.customer.name", "context.tier"]);
  });
});

describe("key suggestions", () => {
  it("finds the object path at a property-name position, and nothing at a value position", () => {
    expect(keyPathAt("{", 1)).toEqual([]);
    expect(keyPathAt('{"company": "Acme", "cu', 23)).toEqual([]);
    expect(keyPathAt('{"customer": { "', 16)).toEqual(["customer"]);
    expect(keyPathAt('{"company": ', 12), "after a colon a value goes, not a key").toBeNull();
    expect(keyPathAt('{"items": [{', 12), "placeholders never index arrays").toBeNull();
    expect(keyPathAt('{"a": {"b": 1}, ', 16)).toEqual([]);
  });

  it("suggests the keys the placeholders use under a path, marking those that hold objects", () => {
    const placeholders = ["context.company", "context.customer.name", "context.customer.email"];
    expect(contextKeySuggestions(placeholders, [])).toEqual([
      { key: "company", object: false },
      { key: "customer", object: true },
    ]);
    expect(contextKeySuggestions(placeholders, ["customer"]).map((s) => s.key)).toEqual(["name", "email"]);
    expect(contextKeySuggestions(placeholders, ["company"])).toEqual([]);
  });
});
