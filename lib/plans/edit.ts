// Editing a plan on its DAG (the inbox's plan editor): pure operations on a
// plan — add or remove a node, draw or delete a dependency, change a node's
// agent or objective — and the live check of the result. The check is the
// workflow's own (planEditProblems, lib/contract/plan-approval.ts), read back
// per node and per cycle so the canvas can mark where each problem is.
import { PLAN_NODE_ID_PATTERN, type Plan, type PlanNode } from "../contract/plan";
import { planEditProblems, type PlanLimits } from "../contract/plan-approval";
import { edgeKey } from "./diff";

/** A free node id for a new node of `agent`: the agent's name (made a valid id), then name-2, name-3… */
export function suggestNodeId(plan: Plan, agent: string): string {
  const base = agent.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "node";
  const taken = new Set(plan.nodes.map((n) => n.id));
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

export function addPlanNode(plan: Plan, node: { id: string; agent: string; objective: string; dependsOn?: string[] }): Plan {
  return { ...plan, nodes: [...plan.nodes, { id: node.id, agent: node.agent, objective: node.objective, dependsOn: node.dependsOn ?? [] }] };
}

/** Removes the node and every dependency on it (the nodes that needed it no longer wait for it). */
export function removePlanNode(plan: Plan, id: string): Plan {
  return { ...plan, nodes: plan.nodes.filter((n) => n.id !== id).map((n) => (n.dependsOn.includes(id) ? { ...n, dependsOn: n.dependsOn.filter((d) => d !== id) } : n)) };
}

/** `target` depends on `source` from now on (drawn from source to target); drawing it twice changes nothing. */
export function addDependency(plan: Plan, source: string, target: string): Plan {
  return { ...plan, nodes: plan.nodes.map((n) => (n.id === target && !n.dependsOn.includes(source) ? { ...n, dependsOn: [...n.dependsOn, source] } : n)) };
}

export function removeDependency(plan: Plan, source: string, target: string): Plan {
  return { ...plan, nodes: plan.nodes.map((n) => (n.id === target ? { ...n, dependsOn: n.dependsOn.filter((d) => d !== source) } : n)) };
}

export function updatePlanNode(plan: Plan, id: string, patch: Partial<Pick<PlanNode, "agent" | "objective">>): Plan {
  return { ...plan, nodes: plan.nodes.map((n) => (n.id === id ? { ...n, ...patch } : n)) };
}

/** The plan's checks, placed: every problem as the workflow words it, and where on the canvas each one is. */
export interface PlanCheck {
  problems: string[];
  /** Each cycle as the ids around it, e.g. ["a", "b", "a"]: a depends on b, which depends on a. */
  cycles: string[][];
  /** Ids of the nodes on a cycle, and keys (edgeKey) of the edges that close it. */
  cycleNodes: ReadonlySet<string>;
  cycleEdges: ReadonlySet<string>;
  /** Problems of single nodes (unknown agent, empty objective, bad id…), by node id, without the path. */
  nodeProblems: ReadonlyMap<string, string[]>;
}

const CYCLE = /^plan\.cycle: (.+)$/;
const NODE_PATH = /^plan\.nodes\[(\d+)\](?:\.[A-Za-z]+(?:\[\d+\])?)?: (.+)$/;

/** Checks a plan as the workflow checks an edit (limits: the graph's cards and size; null when the server sent none: shape and graph rules only). */
export function checkEditedPlan(plan: Plan, limits: PlanLimits | null): PlanCheck {
  // Without limits, any agent the plan names passes and the size is not capped: the workflow alone checks those.
  const effective = limits ?? { agents: [...new Set(plan.nodes.map((n) => n.agent))], maxNodes: Number.MAX_SAFE_INTEGER };
  const problems = planEditProblems({ plan }, effective);
  const cycles: string[][] = [];
  const cycleNodes = new Set<string>();
  const cycleEdges = new Set<string>();
  const nodeProblems = new Map<string, string[]>();
  for (const problem of problems) {
    const cycle = CYCLE.exec(problem);
    if (cycle?.[1]) {
      const ids = cycle[1].split(" → ");
      cycles.push(ids);
      ids.forEach((id, i) => {
        cycleNodes.add(id);
        // ids[i] depends on ids[i + 1]: the edge runs from ids[i + 1] to ids[i].
        const next = ids[i + 1];
        if (next !== undefined) cycleEdges.add(edgeKey({ source: next, target: id }));
      });
      continue;
    }
    const at = NODE_PATH.exec(problem);
    const node = at?.[1] !== undefined ? plan.nodes[Number(at[1])] : undefined;
    if (node && at?.[2]) nodeProblems.set(node.id, [...(nodeProblems.get(node.id) ?? []), at[2]]);
  }
  return { problems, cycles, cycleNodes, cycleEdges, nodeProblems };
}

/** Whether `id` can name a plan node (the workflow's rule). */
export const isValidNodeId = (id: string): boolean => PLAN_NODE_ID_PATTERN.test(id);
