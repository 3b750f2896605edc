"use client";
// A plan waiting for approval (graph plan.approval): the planner's DAG, drawn
// read-only, with its nodes as text; and the JSON editor an approver edits it
// in (add or remove nodes and dependencies, change objectives), checked as the
// workflow checks it before the decision is sent.
import { useId, useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { PlanDag } from "@/components/plan/plan-dag";
import { planEditProblems, planRequestSentence, proposedPlan } from "@/lib/contract/plan-approval";
import type { Plan } from "@/lib/contract/plan";
import type { PlanEvent } from "@/lib/runs/plan-view";
import type { InboxItem } from "@/lib/inbox/schemas";

/** No prices in the inbox: a plan that has not run has no cost yet. */
const NO_PRICES = {};

/** What a planner proposes, in place of a tool call's arguments. */
export function PlanRequestSummary({ item }: { item: InboxItem }) {
  const plan = proposedPlan(item);
  // The DAG is built from plan events, as on the run page: this plan as the one proposed, nothing run yet.
  const events = useMemo<PlanEvent[]>(() => (plan ? [{ type: "plan_proposed", plan, attempt: 1, seq: 0, at: item.requestedAt }] : []), [item.id]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <div className="space-y-2 rounded-md border border-indigo-200 bg-indigo-50 p-3 text-sm" data-testid="approval-plan">
      <p className="font-medium text-indigo-900">{planRequestSentence(item)}</p>
      <p className="text-indigo-800">No node runs until you decide. Approving runs this plan; editing runs yours; rejecting sends your reason to the planner, which plans once more (a second rejection fails the run).</p>
      {plan ? (
        <>
          <PlanDag runId={item.runId} events={events} agentModels={{}} prices={NO_PRICES} />
          <PlanNodeList plan={plan} />
        </>
      ) : (
        <p role="alert" className="text-red-700">
          The plan could not be read.
        </p>
      )}
    </div>
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

/** Parses the editor's text and checks it like the workflow: `{ plan }` within the graph's cards and size. */
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

/** The plan as JSON, editable; sent as the decision's edited arguments `{ plan }` once it passes the checks. */
export function EditPlanForm({ item, pending, onSubmit, onCancel }: { item: InboxItem; pending: boolean; onSubmit: (edited: { plan: Plan }) => void; onCancel: () => void }) {
  const id = useId();
  const [raw, setRaw] = useState(() => JSON.stringify(proposedPlan(item) ?? { nodes: [] }, null, 2));
  const [problems, setProblems] = useState<string[]>([]);

  return (
    <form
      aria-label="Edit plan"
      className="space-y-2 rounded-md border border-zinc-200 bg-zinc-50 p-3"
      onSubmit={(event) => {
        event.preventDefault();
        const checked = checkPlanEdit(raw, item);
        if ("problems" in checked) {
          setProblems(checked.problems);
          return;
        }
        setProblems([]);
        onSubmit({ plan: checked.plan });
      }}
    >
      <label htmlFor={`${id}-plan`} className="block text-xs font-medium text-zinc-700">
        Plan (JSON: nodes with id, agent, objective, dependsOn)
      </label>
      {item.planLimits ? (
        <p className="text-xs text-zinc-600">
          Agents: {item.planLimits.agents.join(", ")} · at most {item.planLimits.maxNodes} nodes
        </p>
      ) : null}
      <textarea
        id={`${id}-plan`}
        autoFocus
        spellCheck={false}
        className="h-72 w-full rounded-md border border-zinc-300 p-2 font-mono text-xs"
        value={raw}
        onChange={(e) => setRaw(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") onCancel();
        }}
      />
      {problems.length > 0 && (
        <ul role="alert" aria-label="Plan problems" className="list-disc space-y-0.5 pl-5 text-xs text-red-700">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          Approve edited plan
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
