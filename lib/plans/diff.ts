// What an approver's edit changed in a plan, as lists a person reads: nodes
// added, removed and changed (agent, objective), and dependencies (edges)
// added and removed. The inbox shows it before "Approve with edits" applies,
// the status line sums it up, and the audit page derives it from the two plans
// the audit row holds (the proposed arguments and the edited ones). Pure.
import type { Plan, PlanNode } from "../contract/plan";
import { plural } from "../text/plural";

/** A dependency drawn as an edge: `target` depends on `source` (it reads its result). */
export interface PlanEdge {
  source: string;
  target: string;
}

export type PlanNodeField = "agent" | "objective";

export interface PlanNodeChange {
  id: string;
  changes: { field: PlanNodeField; before: string; after: string }[];
}

export interface PlanDiff {
  nodesAdded: PlanNode[];
  nodesRemoved: PlanNode[];
  nodesChanged: PlanNodeChange[];
  edgesAdded: PlanEdge[];
  edgesRemoved: PlanEdge[];
}

/** Every dependency of a plan as an edge, in node order. */
export function planEdges(plan: Plan): PlanEdge[] {
  return plan.nodes.flatMap((node) => node.dependsOn.map((dep) => ({ source: dep, target: node.id })));
}

/** The key an edge is known by (also the canvas's edge id). */
export const edgeKey = (edge: PlanEdge): string => `${edge.source}->${edge.target}`;

const FIELDS: readonly PlanNodeField[] = ["agent", "objective"];

/** What changed from `before` to `after`; nodes are matched by id, the order of nodes does not count. */
export function diffPlans(before: Plan, after: Plan): PlanDiff {
  const beforeById = new Map(before.nodes.map((n) => [n.id, n]));
  const afterById = new Map(after.nodes.map((n) => [n.id, n]));
  const nodesChanged: PlanNodeChange[] = [];
  for (const node of after.nodes) {
    const old = beforeById.get(node.id);
    if (!old) continue;
    const changes = FIELDS.filter((field) => old[field] !== node[field]).map((field) => ({ field, before: old[field], after: node[field] }));
    if (changes.length) nodesChanged.push({ id: node.id, changes });
  }
  const beforeEdges = planEdges(before);
  const afterEdges = planEdges(after);
  const beforeKeys = new Set(beforeEdges.map(edgeKey));
  const afterKeys = new Set(afterEdges.map(edgeKey));
  return {
    nodesAdded: after.nodes.filter((n) => !beforeById.has(n.id)),
    nodesRemoved: before.nodes.filter((n) => !afterById.has(n.id)),
    nodesChanged,
    edgesAdded: afterEdges.filter((e) => !beforeKeys.has(edgeKey(e))),
    edgesRemoved: beforeEdges.filter((e) => !afterKeys.has(edgeKey(e))),
  };
}

export function isEmptyPlanDiff(diff: PlanDiff): boolean {
  return diff.nodesAdded.length + diff.nodesRemoved.length + diff.nodesChanged.length + diff.edgesAdded.length + diff.edgesRemoved.length === 0;
}

/** The diff in a few words, e.g. "1 node added, 2 dependencies added"; "no changes" when there are none. */
export function describePlanDiff(diff: PlanDiff): string {
  const parts = [
    diff.nodesAdded.length ? `${plural(diff.nodesAdded.length, "node")} added` : "",
    diff.nodesRemoved.length ? `${plural(diff.nodesRemoved.length, "node")} removed` : "",
    diff.nodesChanged.length ? `${plural(diff.nodesChanged.length, "node")} changed` : "",
    diff.edgesAdded.length ? `${plural(diff.edgesAdded.length, "dependency", "dependencies")} added` : "",
    diff.edgesRemoved.length ? `${plural(diff.edgesRemoved.length, "dependency", "dependencies")} removed` : "",
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "no changes";
}
