import { describe, expect, it } from "vitest";
import { argumentProblems, callKey, diffArguments, fieldsOf, parseField } from "./arguments";

const transferSchema = {
  type: "object",
  properties: {
    from_account: { type: "string", enum: ["operating", "savings", "refunds"] },
    amount: { type: "number", exclusiveMinimum: 0 },
    memo: { type: "string", maxLength: 5 },
  },
  required: ["from_account", "amount"],
  additionalProperties: false,
};

describe("edited arguments", () => {
  it("derives form fields from the schema", () => {
    expect(fieldsOf(transferSchema).map((f) => [f.name, f.kind, f.required])).toEqual([
      ["from_account", "enum", true],
      ["amount", "number", true],
      ["memo", "string", false],
    ]);
  });

  it("parses form values and names the field on a bad one", () => {
    const [, amount] = fieldsOf(transferSchema);
    expect(parseField(amount!, "12.5")).toEqual({ value: 12.5 });
    expect(parseField(amount!, "lots")).toEqual({ problem: "amount: not a number" });
    expect(parseField(amount!, "")).toEqual({ problem: "amount: required" });
  });

  it("checks top-level rules as the workflow does", () => {
    expect(argumentProblems({ from_account: "savings", amount: 5 }, transferSchema)).toEqual([]);
    expect(argumentProblems({ from_account: "vault", amount: 0, memo: "too long", extra: 1 }, transferSchema)).toEqual([
      "from_account: expected one of operating, savings, refunds",
      "amount: must be greater than 0",
      "memo: must have at most 5 characters",
      "extra: not a parameter of this tool",
    ]);
    expect(argumentProblems({ amount: "5" }, transferSchema)).toEqual(["from_account: required", "amount: expected number, got string"]);
  });

  it("diffs only what changed", () => {
    expect(diffArguments({ a: 1, b: "x" }, { a: 2, b: "x", c: true })).toEqual([
      { key: "a", before: "1", after: "2" },
      { key: "c", before: null, after: "true" },
    ]);
  });

  it("groups identical calls whatever the key order", () => {
    expect(callKey("t", { a: 1, b: { d: 1, c: 2 } })).toBe(callKey("t", { b: { c: 2, d: 1 }, a: 1 }));
    expect(callKey("t", { a: 1 })).not.toBe(callKey("u", { a: 1 }));
  });
});
