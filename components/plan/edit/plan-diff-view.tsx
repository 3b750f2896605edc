// A plan edit as lists a person reads (lib/plans/diff.ts): nodes added,
// removed and changed, dependencies added and removed. Shown before "Approve
// with edits" applies and in the audit. No hooks: the audit renders it on the server.
import { isEmptyPlanDiff, type PlanDiff, type PlanEdge } from "@/lib/plans/diff";
import type { PlanNode } from "@/lib/contract/plan";

const nodeLine = (node: PlanNode) => (
  <>
    <span className="font-mono font-semibold">{node.id}</span> · {node.agent} — {node.objective}
  </>
);

const edgeLine = (edge: PlanEdge) => (
  <>
    <span className="font-mono">{edge.source}</span> → <span className="font-mono">{edge.target}</span>
  </>
);

function Section<T>({ title, items, tone, line, keyOf }: { title: string; items: readonly T[]; tone: string; line: (item: T) => React.ReactNode; keyOf: (item: T) => string }) {
  if (items.length === 0) return null;
  return (
    <section aria-label={title}>
      <h4 className="font-medium text-zinc-700">
        {title} ({items.length})
      </h4>
      <ul className={`list-disc space-y-0.5 pl-5 ${tone}`}>
        {items.map((item) => (
          <li key={keyOf(item)}>{line(item)}</li>
        ))}
      </ul>
    </section>
  );
}

export function PlanDiffView({ diff }: { diff: PlanDiff }) {
  if (isEmptyPlanDiff(diff)) return <p className="text-xs text-zinc-500" data-testid="plan-diff">No changes to the plan.</p>;
  return (
    <div className="space-y-2 text-xs" data-testid="plan-diff">
      <Section title="Nodes added" items={diff.nodesAdded} tone="text-emerald-800" line={nodeLine} keyOf={(n) => n.id} />
      <Section title="Nodes removed" items={diff.nodesRemoved} tone="text-red-800" line={nodeLine} keyOf={(n) => n.id} />
      <Section
        title="Nodes changed"
        items={diff.nodesChanged}
        tone="text-amber-900"
        keyOf={(c) => c.id}
        line={(c) => (
          <>
            <span className="font-mono font-semibold">{c.id}</span>:{" "}
            {c.changes.map((change, i) => (
              <span key={change.field}>
                {i > 0 ? "; " : ""}
                {change.field} <span className="text-red-700 line-through">{change.before}</span> → <span className="text-emerald-700">{change.after}</span>
              </span>
            ))}
          </>
        )}
      />
      <Section title="Dependencies added" items={diff.edgesAdded} tone="text-emerald-800" line={edgeLine} keyOf={(e) => `${e.source}->${e.target}`} />
      <Section title="Dependencies removed" items={diff.edgesRemoved} tone="text-red-800" line={edgeLine} keyOf={(e) => `${e.source}->${e.target}`} />
    </div>
  );
}
