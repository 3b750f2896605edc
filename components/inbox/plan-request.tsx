"use client";
// A plan waiting for approval (graph plan.approval): the planner's DAG, drawn
// read-only, with its nodes as text; and the editor an approver changes it in
// on its DAG (or as JSON), checked live as the workflow checks it, with the
// diff shown before "Approve with edits" sends it.
import Link from "@/components/ui/link";
import { usePathname } from "next/navigation";
import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { PlanDag } from "@/components/plan/plan-dag";
import { PlanDiffView } from "@/components/plan/edit/plan-diff-view";
import { PlanEditor } from "@/components/plan/edit/plan-editor";
import { usePlanEdit } from "@/components/plan/edit/use-plan-edit";
import { approvalSubject } from "@/lib/contract/budget-approval";
import { planEditProblems, planRequestSentence, proposedPlan } from "@/lib/contract/plan-approval";
import type { Plan } from "@/lib/contract/plan";
import { describePlanDiff, isEmptyPlanDiff } from "@/lib/plans/diff";
import type { PlanEvent } from "@/lib/runs/plan-view";
import type { InboxItem } from "@/lib/inbox/schemas";
import { EMPTY_PRICE_BOOK } from "@/lib/pricing/price-book";

/** No prices in the inbox: a plan that has not run has no cost yet. */
const NO_PRICES = EMPTY_PRICE_BOOK;

/**
 * Who is looking at the plan request: someone who can decide it (and whether
 * they are editing it: the editor draws the plan then), or someone who cannot
 * (null), who is told who can and where.
 */
export type PlanDecider = "idle" | "reject" | "edit" | null;

/** What a planner proposes, in place of a tool call's arguments. */
export function PlanRequestSummary({ item, decider = "idle" }: { item: InboxItem; decider?: PlanDecider }) {
  const plan = proposedPlan(item);
  // The DAG is built from plan events, as on the run page: this plan as the one proposed, nothing run yet.
  const events = useMemo<PlanEvent[]>(() => (plan ? [{ type: "plan_proposed", plan, attempt: 1, seq: 0, at: item.requestedAt }] : []), [item.id]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <div className="space-y-2 rounded-md border border-indigo-200 bg-indigo-50 p-3 text-sm" data-testid="approval-plan">
      <p className="font-medium text-indigo-900">{planRequestSentence(item)}</p>
      {decider === null ? <WaitingForApprover item={item} /> : <p className="text-indigo-800">No node runs until you decide. Approving runs this plan; editing runs yours; rejecting sends your reason to the planner, which plans once more (a second rejection fails the run).</p>}
      {!plan ? (
        <p role="alert" className="text-red-700">
          The plan could not be read.
        </p>
      ) : decider === "edit" ? (
        // The editor below draws the plan as it is being edited: one drawing, not the proposal above the edit.
        <p className="text-xs text-indigo-800">Edit the plan below; the proposed plan is what the diff compares with.</p>
      ) : (
        <>
          <PlanDag runId={item.runId} events={events} agentModels={{}} prices={NO_PRICES} />
          <PlanNodeList plan={plan} />
        </>
      )}
    </div>
  );
}

/** For someone who cannot decide: who can, and where they do. */
function WaitingForApprover({ item }: { item: InboxItem }) {
  const inInbox = usePathname() === "/inbox";
  return (
    <p className="text-indigo-800" data-testid="plan-waiting-approver">
      Waiting for an approver: no node runs until {item.requiredRole ? `someone with the ${item.requiredRole} role` : "an approver or an admin"} approves, edits or rejects this plan
      {inInbox ? "." : (
        <>
          {" "}
          in the{" "}
          <Link href="/inbox" className="font-medium underline">
            inbox
          </Link>
          .
        </>
      )}
    </p>
  );
}

/** The plan's nodes as text: id, agent, objective and what each waits for. */
function PlanNodeList({ plan }: { plan: Plan }) {
  return (
    <ol className="space-y-1 text-xs text-zinc-800" aria-label="Plan nodes">
      {plan.nodes.map((node) => (
        <li key={node.id} data-testid="plan-request-node" data-node={node.id}>
          <span className="font-mono font-semibold">{node.id}</span> · {node.agent} — {node.objective}
          {node.dependsOn.length ? <span className="text-zinc-600"> (after {node.dependsOn.join(", ")})</span> : null}
        </li>
      ))}
    </ol>
  );
}

/** Parses JSON text and checks it like the workflow: `{ plan }` within the graph's cards and size. */
export function checkPlanEdit(raw: string, item: Pick<InboxItem, "planLimits">): { plan: Plan } | { problems: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { problems: ["the plan is not valid JSON"] };
  }
  // Without the limits (an older server), the workflow alone checks the edit.
  if (!item.planLimits) return { plan: value as Plan };
  const problems = planEditProblems({ plan: value }, item.planLimits);
  return problems.length ? { problems } : { plan: value as Plan };
}

const EMPTY_PLAN: Plan = { nodes: [] };

/**
 * The plan, editable on its DAG or as JSON. "Approve with edits" shows the
 * diff first; confirming sends `{ plan }` as the decision's edited arguments,
 * with the status line the page shows once it is approved.
 */
export function EditPlanForm({ item, pending, onSubmit, onCancel }: { item: InboxItem; pending: boolean; onSubmit: (edited: { plan: Plan }, approvedLine: string) => void; onCancel: () => void }) {
  const proposed = useMemo(() => proposedPlan(item) ?? EMPTY_PLAN, [item]);
  const limits = item.planLimits ?? null;
  const state = usePlanEdit(proposed, limits);
  const [reviewing, setReviewing] = useState(false);
  const agents = useMemo(() => limits?.agents ?? [...new Set(proposed.nodes.map((n) => n.agent))], [limits, proposed]);
  const unchanged = isEmptyPlanDiff(state.diff);
  const blocked = state.problems.length > 0;

  return (
    <form
      aria-label="Edit plan"
      className="space-y-2 rounded-md border border-zinc-200 bg-zinc-50 p-3"
      onKeyDown={(e) => {
        if (e.key === "Escape") onCancel();
      }}
      onSubmit={(event) => {
        event.preventDefault();
        if (blocked || unchanged) return;
        if (!reviewing) {
          setReviewing(true);
          return;
        }
        onSubmit({ plan: state.plan }, `${approvalSubject(item)} (${item.agentName}): approved with edits (${describePlanDiff(state.diff)})`);
      }}
    >
      {reviewing ? (
        <div className="space-y-2" role="region" aria-label="Your edits">
          <p className="text-sm font-medium text-zinc-900">Your edits to the proposed plan: {describePlanDiff(state.diff)}</p>
          <PlanDiffView diff={state.diff} />
        </div>
      ) : (
        <PlanEditor state={state} agents={agents} limits={limits} />
      )}
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" disabled={pending || blocked || unchanged}>
          {reviewing ? "Confirm: approve with these edits" : "Approve with edits"}
        </Button>
        {reviewing ? (
          <Button type="button" variant="secondary" onClick={() => setReviewing(false)}>
            Back to editing
          </Button>
        ) : null}
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        {!reviewing && unchanged && !blocked ? <span className="text-xs text-zinc-500">No edits yet: change the plan, or cancel and approve it as proposed.</span> : null}
        {!reviewing && blocked ? <span className="text-xs text-red-700">Fix the problems above to approve.</span> : null}
      </div>
    </form>
  );
}
