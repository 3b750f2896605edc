// Whether a plan run's latest plan waits for an approver (graph plan.approval):
// proposed, no node started and not finished, and the plan run itself waiting
// for a decision. Then the run page draws the plan once, in the approval card,
// instead of again in its plan section. Pure.
import type { PlanEvent } from "../runs/plan-view";

export function planAwaitsApproval(events: readonly PlanEvent[], runId: string, awaitingApprovalRunIds: readonly string[]): boolean {
  if (!awaitingApprovalRunIds.includes(runId)) return false;
  let proposed = false;
  for (const event of events) {
    if (event.type === "plan_proposed") proposed = true;
    // A node of the latest plan started, or the plan ended: what waits now is a node's call, not the plan.
    else if (event.type === "plan_node_started" || event.type === "plan_finished") proposed = false;
  }
  return proposed;
}
