import { describe, expect, it } from "vitest";
import { BUILTIN_TOOLS } from "../../lib/agents/builtin-tools";
import { BUILTIN_IMPLEMENTATIONS, toFunctionParameters } from "./builtins";

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
});
