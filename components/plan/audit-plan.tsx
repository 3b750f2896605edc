// A plan approval in the audit: the proposed plan as a short list, and the
// approver's edit as a structured diff (lib/plans/diff.ts) derived from the two
// plans the audit row holds — nodes added, removed and changed, dependencies.
// No hooks: the audit page renders it on the server.
import { PlanDiffView } from "@/components/plan/edit/plan-diff-view";
import type { Plan } from "@/lib/contract/plan";
import { describePlanDiff, diffPlans } from "@/lib/plans/diff";
export { auditedPlans } from "@/lib/plans/audited";
import { plural } from "@/lib/text/plural";

export function AuditPlan({ proposed, edited }: { proposed: Plan; edited: Plan | null }) {
  const diff = edited ? diffPlans(proposed, edited) : null;
  return (
    <div className="space-y-1 text-xs" data-testid="audit-plan">
      <details>
        <summary className="cursor-pointer">proposed: a plan of {plural(proposed.nodes.length, "node")}</summary>
        <ol className="list-decimal pl-5">
          {proposed.nodes.map((node) => (
            <li key={node.id}>
              <span className="font-mono">{node.id}</span> · {node.agent}
              {node.dependsOn.length ? <span className="text-zinc-500"> (after {node.dependsOn.join(", ")})</span> : null}
            </li>
          ))}
        </ol>
      </details>
      {diff ? (
        <div className="space-y-1 rounded border border-amber-200 bg-amber-50 p-2" data-testid="audit-plan-edit">
          <p className="font-medium text-amber-900">Approved with edits: {describePlanDiff(diff)}</p>
          <PlanDiffView diff={diff} />
        </div>
      ) : null}
    </div>
  );
}
