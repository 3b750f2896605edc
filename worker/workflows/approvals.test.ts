import { describe, expect, it } from "vitest";
import { agentSchema } from "../../lib/agents/schemas";
import { DEFAULT_WORKSPACE_POLICY } from "../../lib/policy/schemas";
import type { AgentRunInput } from "../../lib/contract/workflow";
import { argumentProblems, gateFor } from "./approvals";

describe("approval helpers", () => {
  const agent = agentSchema.parse({ name: "a", tools: ["ledger_transfer"], approvalRules: [{ pattern: "ledger_*", requiredRole: "approver" }, { pattern: "*" }] });

  it("gates with every matching rule, its own and inherited, the strictest winning", () => {
    const input = { gate: { policy: DEFAULT_WORKSPACE_POLICY, policyRevision: 1, inheritedRules: [agentSchema.shape.approvalRules.parse([{ pattern: "calc*", requiredApprovals: 2 }])[0]!], starter: null, author: null } } as AgentRunInput;
    expect(gateFor(input, agent, "ledger_transfer", {})?.requiredRole).toBe("approver");
    expect(gateFor(input, agent, "calculator", {})).toMatchObject({ requiredApprovals: 2, reason: "rule" });
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
