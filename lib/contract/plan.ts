// Plan-and-execute (issue 17; seed: dag-orchestration-design.md): a planner
// turns the task into a DAG of agent tasks, and the run executes every node
// whose dependencies are done, in parallel. Pure and zod-free: the workflow
// validates a plan with it, the browser draws one.

export interface PlanNode {
  id: string;
  /** The agent (a card of the graph) that does this node's work. */
  agent: string;
  objective: string;
  dependsOn: string[];
}

export interface Plan {
  nodes: PlanNode[];
  metadata?: Record<string, unknown>;
}

export type PlanNodeStatus = "pending" | "running" | "completed" | "failed" | "skipped" | "cancelled";

/**
 * How a plan run ended: every node completed, some failed (independent
 * branches went on), nothing usable, or stopped before the end (the run was
 * cancelled or timed out, its budget ran out) with every node's state recorded.
 */
export type PlanOutcome = "completed" | "partially_failed" | "failed" | "cancelled";

export const PLAN_NODE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** The JSON Schema of a plan, with the agents the planner may use. */
export function planSchema(agents: readonly string[]): Record<string, unknown> {
  return {
    type: "object",
    properties: {
      nodes: {
        type: "array",
        minItems: 1,
        items: {
          type: "object",
          properties: {
            id: { type: "string", pattern: PLAN_NODE_ID_PATTERN.source, description: "A short unique id, e.g. research_flights" },
            agent: { type: "string", enum: [...agents] },
            objective: { type: "string", minLength: 1, description: "What this node must accomplish" },
            dependsOn: { type: "array", items: { type: "string" }, description: "Ids of the nodes whose results this one needs" },
          },
          required: ["id", "agent", "objective", "dependsOn"],
          additionalProperties: false,
        },
      },
      metadata: { type: "object", additionalProperties: true },
    },
    required: ["nodes"],
    additionalProperties: false,
  };
}

/** The cycles among the nodes' dependencies, each as the ids around it. */
function findCycles(nodes: readonly PlanNode[]): string[][] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const state = new Map<string, "visiting" | "done">();
  const cycles: string[][] = [];
  const stack: string[] = [];
  // Iterative depth-first search: a 1,000-node chain must not overflow the stack.
  for (const start of nodes) {
    if (state.has(start.id)) continue;
    const frames: { id: string; next: number }[] = [{ id: start.id, next: 0 }];
    state.set(start.id, "visiting");
    stack.push(start.id);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const deps = byId.get(frame.id)?.dependsOn ?? [];
      if (frame.next >= deps.length) {
        frames.pop();
        stack.pop();
        state.set(frame.id, "done");
        continue;
      }
      const dep = deps[frame.next++]!;
      if (!byId.has(dep)) continue;
      if (state.get(dep) === "visiting") cycles.push([...stack.slice(stack.indexOf(dep)), dep]);
      else if (!state.has(dep)) {
        state.set(dep, "visiting");
        stack.push(dep);
        frames.push({ id: dep, next: 0 });
      }
    }
  }
  return cycles;
}

/**
 * What is wrong with a plan beyond its JSON Schema, each problem with its
 * path: duplicate ids, unknown dependencies and agents, cycles (named), size.
 */
export function planProblems(plan: Plan, agents: readonly string[], maxNodes: number): string[] {
  const problems: string[] = [];
  if (plan.nodes.length === 0) problems.push("nodes: the plan has no nodes");
  if (plan.nodes.length > maxNodes) problems.push(`nodes: the plan has ${plan.nodes.length} nodes; at most ${maxNodes}`);
  const firstIndex = new Map<string, number>();
  plan.nodes.forEach((node, i) => {
    const earlier = firstIndex.get(node.id);
    if (earlier !== undefined) problems.push(`nodes[${i}].id: duplicate id "${node.id}" (also nodes[${earlier}])`);
    else firstIndex.set(node.id, i);
    if (!PLAN_NODE_ID_PATTERN.test(node.id)) problems.push(`nodes[${i}].id: use 1–64 letters, digits, _ or -`);
    if (!agents.includes(node.agent)) problems.push(`nodes[${i}].agent: unknown agent "${node.agent}" (agents: ${agents.join(", ")})`);
    if (!node.objective.trim()) problems.push(`nodes[${i}].objective: say what this node must accomplish`);
  });
  plan.nodes.forEach((node, i) =>
    node.dependsOn.forEach((dep, k) => {
      if (!firstIndex.has(dep)) problems.push(`nodes[${i}].dependsOn[${k}]: no node has the id "${dep}"`);
      else if (dep === node.id) problems.push(`nodes[${i}].dependsOn[${k}]: "${dep}" depends on itself`);
    }),
  );
  for (const cycle of findCycles(plan.nodes.map((n) => ({ ...n, dependsOn: n.dependsOn.filter((d) => d !== n.id) })))) {
    problems.push(`cycle: ${cycle.join(" → ")}`);
  }
  return problems;
}

/** Nodes that nothing depends on: the synthesis reads their results. */
export function sinkNodes(plan: Plan): PlanNode[] {
  const needed = new Set(plan.nodes.flatMap((n) => n.dependsOn));
  return plan.nodes.filter((n) => !needed.has(n.id));
}

/** The length of the longest dependency chain, in nodes (the critical path when nodes take equal time). */
export function criticalPathLength(plan: Plan): number {
  const byId = new Map(plan.nodes.map((n) => [n.id, n]));
  const depth = new Map<string, number>();
  const visit = (id: string): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    depth.set(id, 1);
    const deps = byId.get(id)?.dependsOn ?? [];
    let best = 0;
    for (const dep of deps) if (byId.has(dep)) best = Math.max(best, visit(dep));
    depth.set(id, best + 1);
    return best + 1;
  };
  return plan.nodes.reduce((max, n) => Math.max(max, visit(n.id)), 0);
}
