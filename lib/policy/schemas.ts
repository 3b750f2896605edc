// The workspace policy: what an admin decides about approvals for every agent.
// Browser-safe. Builders edit graph rules, which can only add to this (see
// lib/policy/gate.ts); nothing in a graph can lower a floor.
import { z } from "zod";

/** Roles that may be required to decide an approval, weakest first. */
export const GATE_ROLES = ["viewer", "builder", "approver", "admin"] as const;
export type GateRole = (typeof GATE_ROLES)[number];

export const EXPIRY_OUTCOMES = ["reject", "approve"] as const;

const toolGlobSchema = z.string().regex(/^[A-Za-z0-9_*?.-]{1,100}$/, "use a tool name or glob (letters, digits, _ - . * ?)");

/** The least every approval must demand; a graph rule asking for less is raised to these. */
export const policyFloorsSchema = z.strictObject({
  /** Distinct approvers every gated call needs at least. */
  minRequiredApprovals: z.number().int().min(1).max(5).default(1),
  /** The role every gated call needs at least (unset: anyone allowed to decide approvals). */
  requiredRole: z.enum(["approver", "admin"]).optional(),
  /** The longest a request may wait; also the expiry of calls gated by default. */
  maxExpiresInSeconds: z.number().int().min(60).max(30 * 24 * 3600).default(24 * 3600),
  /** What an expiry may do; "approve" here lets a graph rule approve on expiry. */
  allowedExpiryOutcomes: z.array(z.enum(EXPIRY_OUTCOMES)).min(1).max(2).default(["reject"]),
  /** Whether the person who started a run, or wrote the version it runs, may approve its calls. */
  allowSelfApproval: z.boolean().default(false),
});

export const workspacePolicySchema = z.strictObject({
  /** Tools (globs) exempt from deny-by-default, e.g. an MCP server's read-only tools "kb__*". Graph rules still apply. */
  exemptTools: z.array(toolGlobSchema).max(200).default([]),
  floors: policyFloorsSchema.default(() => policyFloorsSchema.parse({})),
  /**
   * Who besides a run's starter may cancel it or send it follow-ups: this role
   * and above (admins always may). A run is its starter's: a colleague's cancel
   * or follow-up is refused unless the workspace says otherwise here.
   */
  othersRunsRole: z.enum(["builder", "approver", "admin"]).default("admin"),
});

export type WorkspacePolicy = z.infer<typeof workspacePolicySchema>;
export type WorkspacePolicyInput = z.input<typeof workspacePolicySchema>;

/** The policy when an admin never saved one: everything side-effecting or MCP is gated, nothing exempt. */
export const DEFAULT_WORKSPACE_POLICY: WorkspacePolicy = workspacePolicySchema.parse({});

/**
 * The policy the seed writes: the bundled demo MCP server's read-only search is exempt. Named, not
 * `kb__*`: a glob would also exempt `kb__create_ticket`, a write, and any tool the server adds later.
 */
export const SEED_WORKSPACE_POLICY: WorkspacePolicy = workspacePolicySchema.parse({ exemptTools: ["kb__search_kb"] });

/** The policy as read and shown, with its revision. */
export interface WorkspacePolicyView {
  policy: WorkspacePolicy;
  revision: number;
  updatedAt: string | null;
  updatedBy: string | null;
}
