// Which tool calls pause for approval, and what the approval demands: the
// workspace policy's floors and deny-by-default, plus the graph's rules (an
// agent's own and every ancestor's), which can only add. Pure and browser-safe:
// the workflow decides with it and the designer previews with it, so both
// always agree. Imports no zod (it runs inside the workflow bundle).
import type { ApprovalRule } from "../agents/schemas";
import { BUILTIN_TOOLS, MCP_TOOL_SEPARATOR } from "../tools/catalog";
import { matchesGlob } from "../agents/glob";
import type { GateRole, WorkspacePolicy } from "./schemas";

/** What a tool is, as far as the gate cares. */
export type ToolKind = "builtin" | "side_effect" | "mcp" | "agent";

/** The requirement of one gated call. */
export interface GateRequirement {
  requiredRole: GateRole | null;
  requiredApprovals: number;
  expiresInSeconds: number;
  onExpiry: "reject" | "approve";
  allowSelfApproval: boolean;
  /** Why the call is gated: graph rules matched it, or deny-by-default (side-effecting built-in or MCP tool). */
  reason: "rule" | "default";
}

/** The policy of runs that carry none (started before the workspace policy existed): deny-by-default, no exemptions. */
export const FALLBACK_POLICY: WorkspacePolicy = {
  exemptTools: [],
  floors: { minRequiredApprovals: 1, maxExpiresInSeconds: 24 * 3600, allowedExpiryOutcomes: ["reject"], allowSelfApproval: false },
  othersRunsRole: "admin",
};

const SIDE_EFFECT_TOOLS = new Set<string>(BUILTIN_TOOLS.filter((t) => t.sideEffect).map((t) => t.id));
const BUILTIN_IDS = new Set<string>(BUILTIN_TOOLS.map((t) => t.id));

/** The kind of a tool from its name: a built-in, an MCP tool (`<server>__<tool>`), or message_agent. */
export function toolKindOf(name: string): ToolKind {
  if (SIDE_EFFECT_TOOLS.has(name)) return "side_effect";
  if (BUILTIN_IDS.has(name)) return "builtin";
  if (name === "message_agent") return "agent";
  // A name that is neither cannot be called (the executor refuses tools the agent lacks).
  return name.includes(MCP_TOOL_SEPARATOR) ? "mcp" : "builtin";
}

const ROLE_RANK: Record<GateRole, number> = { viewer: 0, builder: 1, approver: 2, admin: 3 };

/**
 * Whether someone with `role` meets a gate's required role: the same order the
 * gate uses to pick the stricter of two, so a rule naming a lower role never
 * locks out the approvers above it.
 */
export function roleMeets(role: string, required: string): boolean {
  const rank = (name: string): number | undefined => (Object.hasOwn(ROLE_RANK, name) ? ROLE_RANK[name as GateRole] : undefined);
  const have = rank(role);
  const need = rank(required);
  // An unknown required role can only be met by an admin (never silently by anyone).
  return have !== undefined && (need === undefined ? role === "admin" : have >= need);
}

function higherRole(a: GateRole | null, b: GateRole | null | undefined): GateRole | null {
  if (!b) return a;
  if (!a) return b;
  return ROLE_RANK[b] > ROLE_RANK[a] ? b : a;
}

/**
 * The approval a call of `toolName` needs, or null when it runs ungated. Every
 * matching graph rule counts (the strictest of each field wins), then the
 * policy's floors raise whatever is lower: more approvals, a higher role, a
 * shorter expiry, "approve on expiry" only where the policy allows it,
 * self-approval only when the rules and the policy both allow it.
 */
export function effectiveGate(policy: WorkspacePolicy, rules: readonly ApprovalRule[], toolName: string, toolKind: ToolKind = toolKindOf(toolName)): GateRequirement | null {
  const matching = rules.filter((rule) => matchesGlob(rule.pattern, toolName));
  const deniedByDefault = (toolKind === "side_effect" || toolKind === "mcp") && !policy.exemptTools.some((glob) => matchesGlob(glob, toolName));
  if (matching.length === 0 && !deniedByDefault) return null;
  const { floors } = policy;
  let requiredRole: GateRole | null = floors.requiredRole ?? null;
  let requiredApprovals = floors.minRequiredApprovals;
  let expiresInSeconds = floors.maxExpiresInSeconds;
  let approveOnExpiry = matching.length > 0;
  let allowSelfApproval = floors.allowSelfApproval;
  for (const rule of matching) {
    requiredRole = higherRole(requiredRole, rule.requiredRole);
    requiredApprovals = Math.max(requiredApprovals, rule.requiredApprovals);
    expiresInSeconds = Math.min(expiresInSeconds, rule.expiresInSeconds);
    approveOnExpiry &&= rule.onExpiry === "approve";
    allowSelfApproval &&= rule.allowSelfApproval;
  }
  // A call gated by default approves on expiry only if a rule says so, and the policy allows it.
  approveOnExpiry &&= floors.allowedExpiryOutcomes.includes("approve");
  return {
    requiredRole,
    requiredApprovals,
    expiresInSeconds,
    onExpiry: approveOnExpiry ? "approve" : "reject",
    allowSelfApproval,
    reason: matching.length > 0 ? "rule" : "default",
  };
}

/** The rules that apply to an agent: its own, then those its ancestors in the run passed down. */
export function applicableRules(own: readonly ApprovalRule[], inherited: readonly ApprovalRule[] | undefined): ApprovalRule[] {
  return [...own, ...(inherited ?? [])];
}
