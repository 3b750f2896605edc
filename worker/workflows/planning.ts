// Plan and execute, the planner's side (issue 17; seed: dag-orchestration-design.md):
// the planner's answer is a plan, checked beyond its schema (ids, dependencies,
// agents, cycles, size) and repaired like any typed answer, else plan_invalid;
// approved by a person when the graph asks for it (approve, edit, or reject
// once for a re-plan); then run by the scheduler (plan-scheduler.ts).
import type { AgentConfig, AgentGraph } from "../../lib/agents/schemas";
import { isPlanner, planCards } from "../../lib/contract/system-tools";
import { planProblems, type Plan } from "../../lib/contract/plan";
import { approvedPlan, PLAN_REJECTIONS_ALLOWED, replanPrompt } from "../../lib/contract/plan-approval";
import type { TurnResult } from "./final-answer";
import { executePlanLegacy } from "./plan-executor-legacy";
import { schedulePlan } from "./plan-scheduler";
import { DEFAULT_PLAN_SETTINGS } from "./plan-settings";
import { RunFailure } from "./run-failure";
import type { TurnContext } from "./turn-context";

/** How long before the turn's deadline a plan approval expires, so its expiry (not the run timeout) ends the wait. */
const PLAN_EXPIRY_MARGIN_MS = 1000;


/** A planner's plan is checked beyond its schema: ids, dependencies, agents, cycles, size (undefined for other agents). */
export function planCheck(agent: AgentConfig, graph: AgentGraph): ((data: unknown) => string[]) | undefined {
  if (!isPlanner(agent, graph)) return undefined;
  const maxNodes = graph.plan?.maxNodes ?? DEFAULT_PLAN_SETTINGS.maxNodes;
  return (data) => planProblems(data as Plan, planCards(graph), maxNodes);
}

/** A planner's turn: a valid plan, approved when the graph asks for it, then its execution. */
export async function planTurn(turn: TurnContext): Promise<TurnResult> {
  const { state, input } = turn;
  const decided = await turn.iterate();
  if (decided.kind !== "answer") return decided;
  const proposed = decided.data as Plan;
  state.emit({ type: "plan_proposed", plan: proposed, attempt: state.planAttempts });
  // Only graphs that ask for approval wait: the histories of every other plan run replay as they ran.
  const plan = input.graph.plan?.approval ? await approvePlan(turn, proposed) : proposed;
  if (!("nodes" in plan)) return plan;
  const task = state.turnTask || input.message;
  const parent = turn.parentSpan();
  const planner = turn.agent;
  // Runs recorded before the scheduler replay on the legacy executor (engine-patches.ts).
  if (!state.patches.planScheduler) {
    return executePlanLegacy({ state, input, planner, checkBudget: () => turn.checkBudget() }, plan, task, parent);
  }
  return schedulePlan({ state, input, planner, deadline: turn.deadline, checkBudget: () => turn.checkBudget(), stopReason: (error) => turn.stopReason(error) }, plan, task, parent);
}

/**
 * The plan an approver lets run: as proposed, or as they edited it (proposed
 * again, so the run's plan is the last one proposed). A rejection's reason
 * goes to the planner, which plans once more for approval; a second
 * rejection, or an expiry, fails the run plan_invalid.
 */
async function approvePlan(turn: TurnContext, proposed: Plan): Promise<Plan | TurnResult> {
  const { state } = turn;
  let plan = proposed;
  for (;;) {
    const approval = await turn.approvals.requestPlan(plan, turn.deadline - PLAN_EXPIRY_MARGIN_MS, turn.parentSpan());
    if (approval.status === "approved") {
      const edited = approval.decision?.editedArguments ? approvedPlan(approval) : null;
      if (!edited) return plan;
      state.emit({ type: "plan_proposed", plan: edited, attempt: state.planAttempts });
      return edited;
    }
    if (approval.status !== "rejected") throw new RunFailure("plan_invalid", "the plan's approval expired before an approver decided");
    const by = approval.decision?.decidedBy.email ?? "an approver";
    const reason = approval.decision?.reason ?? "no reason given";
    // Counted in the run state: a rejection before a continue-as-new still counts after it.
    if (++state.planRejections > PLAN_REJECTIONS_ALLOWED) throw new RunFailure("plan_invalid", `${by} rejected the plan again: ${reason}`);
    state.pushMessage({ role: "user", content: replanPrompt(reason, by) });
    const replanned = await turn.iterate();
    if (replanned.kind !== "answer") return replanned;
    plan = replanned.data as Plan;
    state.emit({ type: "plan_proposed", plan, attempt: state.planAttempts });
  }
}
