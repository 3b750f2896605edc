// The plans an audit row of a plan approval holds: the proposed one, and the
// approver's edit when there was one. Read by the audit page and its CSV export.
import { PLAN_APPROVAL_TOOL, proposedPlan } from "../contract/plan-approval";
import type { Plan } from "../contract/plan";
import { describePlanDiff, diffPlans } from "./diff";

/** The proposed and (when edited) approved plans of an audit row; null when the row is no plan approval or holds no readable plan. */
export function auditedPlans(tool: unknown, args: unknown, edited: unknown): { proposed: Plan; edited: Plan | null } | null {
  if (tool !== PLAN_APPROVAL_TOOL || typeof args !== "object" || args === null) return null;
  const proposed = proposedPlan({ arguments: args as Record<string, unknown> });
  if (!proposed) return null;
  const approved = typeof edited === "object" && edited !== null ? proposedPlan({ arguments: edited as Record<string, unknown> }) : null;
  return { proposed, edited: approved };
}

/**
 * A plan edit in one line for the CSV export: the summary, then each change by
 * name ("1 node added, 1 dependency added: +node hotel (hotel-researcher); +dependency flights -> hotel").
 * Empty for a row that is no edited plan.
 */
export function planEditLine(tool: unknown, args: unknown, edited: unknown): string {
  const plans = auditedPlans(tool, args, edited);
  if (!plans?.edited) return "";
  const diff = diffPlans(plans.proposed, plans.edited);
  const items = [
    ...diff.nodesAdded.map((n) => `+node ${n.id} (${n.agent})`),
    ...diff.nodesRemoved.map((n) => `-node ${n.id} (${n.agent})`),
    ...diff.nodesChanged.map((c) => `~node ${c.id} (${c.changes.map((ch) => ch.field).join(", ")})`),
    ...diff.edgesAdded.map((e) => `+dependency ${e.source} -> ${e.target}`),
    ...diff.edgesRemoved.map((e) => `-dependency ${e.source} -> ${e.target}`),
  ];
  return items.length ? `${describePlanDiff(diff)}: ${items.join("; ")}` : describePlanDiff(diff);
}
