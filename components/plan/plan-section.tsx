"use client";
// The run page's plan section: the plan events read with the page plus those
// the live tail brings, drawn as the DAG once a plan has been proposed. A plan
// waiting for its approver is drawn once, in the approval card above (with
// the editor for those who can decide), not a second time here.
import type { RunEvent } from "@/lib/contract/types";
import type { PlanEvent } from "@/lib/runs/plan-view";
import type { PriceBook } from "@/lib/runs/pricing";
import { planAwaitsApproval } from "@/lib/plans/awaiting";
import { PlanDag } from "./plan-dag";
import { usePlanEvents } from "./use-plan-events";

/** What the run page's server part reads for a plan run. */
export interface PlanData {
  events: PlanEvent[];
  /** The seq up to which `events` holds every plan event (the live tail starts after it). */
  through: number;
  agentModels: Record<string, string>;
  prices: PriceBook;
}

export function PlanSection({ runId, plan, tailEvents, awaitingApprovalRunIds }: { runId: string; plan: PlanData; tailEvents: readonly RunEvent[]; awaitingApprovalRunIds: readonly string[] }) {
  const events = usePlanEvents(runId, plan.events, plan.through, tailEvents);
  if (!events.some((e) => e.type === "plan_proposed")) return <p className="mb-4 text-sm text-zinc-500" data-testid="plan-waiting">The planner is writing the plan…</p>;
  if (planAwaitsApproval(events, runId, awaitingApprovalRunIds)) {
    return (
      <p className="mb-4 text-sm text-zinc-600" data-testid="plan-awaiting-approval">
        The plan waits for approval: it is drawn in the approval card above, and runs once an approver approves it.
      </p>
    );
  }
  return (
    <div className="mb-4">
      <PlanDag runId={runId} events={events} agentModels={plan.agentModels} prices={plan.prices} awaitingApprovalRunIds={awaitingApprovalRunIds} />
    </div>
  );
}
