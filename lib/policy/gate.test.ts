import { describe, expect, it } from "vitest";
import { approvalRuleSchema } from "../agents/schemas";
import { effectiveGate, toolKindOf } from "./gate";
import { DEFAULT_WORKSPACE_POLICY, workspacePolicySchema } from "./schemas";

const rule = (input: Record<string, unknown>) => approvalRuleSchema.parse(input);

describe("effectiveGate", () => {
  it("denies by default: side-effecting built-ins and MCP tools need approval, read-only built-ins do not", () => {
    expect(toolKindOf("ledger_transfer")).toBe("side_effect");
    expect(toolKindOf("kb__search_kb")).toBe("mcp");
    expect(effectiveGate(DEFAULT_WORKSPACE_POLICY, [], "ledger_transfer")).toMatchObject({ reason: "default", onExpiry: "reject", allowSelfApproval: false, requiredApprovals: 1 });
    expect(effectiveGate(DEFAULT_WORKSPACE_POLICY, [], "crm__delete_contact")).toMatchObject({ reason: "default" });
    expect(effectiveGate(DEFAULT_WORKSPACE_POLICY, [], "calculator")).toBeNull();
    expect(effectiveGate(DEFAULT_WORKSPACE_POLICY, [], "message_agent")).toBeNull();
  });

  it("exempts what the policy exempts, unless a graph rule gates it anyway", () => {
    const policy = workspacePolicySchema.parse({ exemptTools: ["kb__*"] });
    expect(effectiveGate(policy, [], "kb__search_kb")).toBeNull();
    expect(effectiveGate(policy, [rule({ pattern: "kb__*" })], "kb__search_kb")).toMatchObject({ reason: "rule" });
  });

  it("lets a graph rule only add: the floors raise approvals and role, cap the expiry and refuse approve-on-expiry", () => {
    const policy = workspacePolicySchema.parse({ floors: { minRequiredApprovals: 2, requiredRole: "approver", maxExpiresInSeconds: 3600 } });
    const weak = rule({ pattern: "*", requiredRole: "viewer", requiredApprovals: 1, expiresInSeconds: 7 * 86400, onExpiry: "approve", allowSelfApproval: true });
    expect(effectiveGate(policy, [weak], "calculator")).toEqual({ requiredRole: "approver", requiredApprovals: 2, expiresInSeconds: 3600, onExpiry: "reject", allowSelfApproval: false, reason: "rule" });
    const strict = rule({ pattern: "calc*", requiredRole: "admin", requiredApprovals: 3, expiresInSeconds: 60 });
    expect(effectiveGate(policy, [weak, strict], "calculator")).toMatchObject({ requiredRole: "admin", requiredApprovals: 3, expiresInSeconds: 60 });
  });

  it("approves on expiry only when both the rule and the policy say so", () => {
    const permissive = workspacePolicySchema.parse({ floors: { allowedExpiryOutcomes: ["reject", "approve"], allowSelfApproval: true } });
    expect(effectiveGate(permissive, [rule({ pattern: "*", onExpiry: "approve", allowSelfApproval: true })], "calculator")).toMatchObject({ onExpiry: "approve", allowSelfApproval: true });
    expect(effectiveGate(permissive, [], "ledger_transfer")).toMatchObject({ onExpiry: "reject" });
    expect(rule({ pattern: "x" }).allowSelfApproval).toBe(false);
  });

  it("refuses unknown keys in a policy", () => {
    expect(workspacePolicySchema.safeParse({ exemptTools: [], floors: {}, extra: 1 }).success).toBe(false);
  });
});
