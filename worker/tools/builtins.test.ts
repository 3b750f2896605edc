import { describe, expect, it } from "vitest";
import { BUILTIN_TOOLS } from "../../lib/tools/catalog";
import { BUILTIN_TOOL_INPUTS, builtinToolParameters, toFunctionParameters } from "../../lib/tools/arguments";
import { BUILTIN_IMPLEMENTATIONS } from "./builtins";

describe("built-in tools", () => {
  it("implements exactly the tools the designer lists, with the same side-effect flags", () => {
    expect(BUILTIN_IMPLEMENTATIONS.map((t) => [t.id, t.sideEffect]).sort()).toEqual(BUILTIN_TOOLS.map((t) => [t.id, t.sideEffect]).sort());
  });

  it("offers function-calling schemas without the $schema marker", () => {
    const transfer = BUILTIN_IMPLEMENTATIONS.find((t) => t.id === "ledger_transfer")!;
    const params = toFunctionParameters(transfer.schema);
    expect(params).toMatchObject({ type: "object", required: expect.arrayContaining(["from_account", "to_account", "amount"]) });
    expect(params).not.toHaveProperty("$schema");
  });

  it("checks arguments against the catalogue's schemas, the ones approvers see", () => {
    for (const tool of BUILTIN_IMPLEMENTATIONS) expect(tool.schema, tool.id).toBe(BUILTIN_TOOL_INPUTS[tool.id as keyof typeof BUILTIN_TOOL_INPUTS]);
    expect(builtinToolParameters("ledger_transfer")).toEqual(toFunctionParameters(BUILTIN_TOOL_INPUTS.ledger_transfer));
    expect(builtinToolParameters("toString"), "an inherited property is not a tool").toBeNull();
    expect(builtinToolParameters("nope")).toBeNull();
  });
});
