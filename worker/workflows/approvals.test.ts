import { describe, expect, it } from "vitest";
import { agentSchema } from "../../lib/agents/schemas";
import { argumentProblems, matchingRule } from "./approvals";

describe("approval helpers", () => {
  const agent = agentSchema.parse({ name: "a", tools: ["ledger_transfer"], approvalRules: [{ pattern: "ledger_*", requiredRole: "approver" }, { pattern: "*" }] });

  it("picks the first matching rule", () => {
    expect(matchingRule(agent, "ledger_transfer")?.requiredRole).toBe("approver");
    expect(matchingRule(agent, "calculator")?.pattern).toBe("*");
  });

  it("checks edited arguments against the tool schema", () => {
    const schema = {
      type: "object",
      properties: { amount: { type: "number" }, to_account: { type: "string", enum: ["savings", "refunds"] } },
      required: ["amount", "to_account"],
      additionalProperties: false,
    };
    expect(argumentProblems({ amount: 5, to_account: "savings" }, schema)).toEqual([]);
    expect(argumentProblems({ amount: "5", to_account: "moon", extra: 1 }, schema)).toEqual([
      "amount: expected number, got string",
      "to_account: expected one of savings, refunds",
      "extra: not a parameter of this tool",
    ]);
    expect(argumentProblems({}, schema)).toEqual(["amount: required", "to_account: required"]);
  });
});
