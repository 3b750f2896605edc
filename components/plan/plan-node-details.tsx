"use client";
// A selected plan node under the DAG: its objective, dependencies, why it failed
// or was skipped, a link to its run, and its child run's trace inline.
import Link from "@/components/ui/link";
import { PLAN_NODE_STATUS_LABEL, type PlanNodeView } from "@/lib/runs/plan-view";
import { PlanNodeTrace } from "./plan-node-trace";

export function PlanNodeDetails({ node, onClose }: { node: PlanNodeView; onClose: () => void }) {
  return (
    <div className="space-y-2 rounded-lg border border-zinc-200 bg-white p-3" data-testid="plan-node-details" data-node={node.id}>
      <div className="flex flex-wrap items-baseline gap-3 text-sm">
        <h3 className="font-semibold text-zinc-900">
          {node.id} · {node.agent}
        </h3>
        <span className="text-zinc-600">{PLAN_NODE_STATUS_LABEL[node.status]}</span>
        {node.status === "awaiting_approval" ? (
          <Link className="text-orange-700 hover:underline" href="/inbox">
            Decide in the inbox
          </Link>
        ) : null}
        {node.runId ? (
          <Link className="text-indigo-600 hover:underline" href={`/runs/${encodeURIComponent(node.runId)}`}>
            Open run
          </Link>
        ) : null}
        <button type="button" className="ml-auto text-indigo-600 hover:underline" onClick={onClose}>
          Close
        </button>
      </div>
      <p className="text-sm text-zinc-700">{node.objective}</p>
      {node.dependsOn.length ? <p className="text-xs text-zinc-500">Depends on {node.dependsOn.join(", ")}</p> : null}
      {node.reason ? <p className="text-sm text-red-700">{node.reason}</p> : null}
      {node.runId ? <PlanNodeTrace key={node.runId} runId={node.runId} agent={node.agent} /> : <p className="text-sm text-zinc-500">This node has not run.</p>}
    </div>
  );
}
