// Differences between two versions of a graph: per canvas node and edge (for
// highlighting) and per field (for the list). Positions are left out: moving
// a node is not a change of the agent.
import type { AgentGraph } from "./schemas";
import { agentNodeId, handoffEdgeId, mcpEdgeId, mcpNodeId, subAgentEdgeId, toolEdgeId, toolNodeId, type NodeId } from "./graph-edit";
import { formatPath } from "../errors";

export type DiffMark = "added" | "removed" | "changed";

export interface FieldChange {
  path: string;
  before?: unknown;
  after?: unknown;
}

export interface GraphDiff {
  nodes: Map<NodeId, DiffMark>;
  edges: Map<string, DiffMark>;
  fields: FieldChange[];
}

/** Every node and edge id of a graph, with a fingerprint of what the node shows. */
export function graphElements(graph: AgentGraph): { nodes: Map<NodeId, string>; edges: Set<string> } {
  const nodes = new Map<NodeId, string>();
  const edges = new Set<string>();
  for (const agent of graph.agents) {
    const { mcpServers, ...rest } = agent;
    nodes.set(agentNodeId(agent.name), JSON.stringify({ ...rest, entry: graph.entryAgent === agent.name }));
    for (const child of agent.subAgents) edges.add(subAgentEdgeId(agent.name, child));
    for (const target of agent.handoffs) edges.add(handoffEdgeId(agent.name, target));
    for (const tool of agent.tools) {
      nodes.set(toolNodeId(tool), tool);
      edges.add(toolEdgeId(agent.name, tool));
    }
    for (const server of mcpServers) {
      nodes.set(mcpNodeId(agent.name, server.name), JSON.stringify(server));
      edges.add(mcpEdgeId(agent.name, server.name));
    }
  }
  return { nodes, edges };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `prefix` followed by a formatted path (`agents["main"]` + `tools[0]` → `agents["main"].tools[0]`). */
function joinPath(prefix: string, path: (string | number)[]): string {
  const tail = formatPath(path);
  if (!prefix || !tail) return prefix || tail || "(root)";
  return tail.startsWith("[") ? `${prefix}${tail}` : `${prefix}.${tail}`;
}

/** Leaf-level changes between two JSON values; a list of plain values is one change. */
function fieldChanges(before: unknown, after: unknown, prefix: string, path: (string | number)[], out: FieldChange[]): void {
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  if (isRecord(before) && isRecord(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) fieldChanges(before[key], after[key], prefix, [...path, key], out);
    return;
  }
  if (Array.isArray(before) && Array.isArray(after) && before.every((v) => typeof v !== "object") && after.every((v) => typeof v !== "object")) {
    out.push({ path: joinPath(prefix, path), before, after });
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    for (let i = 0; i < Math.max(before.length, after.length); i++) fieldChanges(before[i], after[i], prefix, [...path, i], out);
    return;
  }
  out.push({ path: joinPath(prefix, path), ...(before === undefined ? {} : { before }), ...(after === undefined ? {} : { after }) });
}

/** What changed from `from` to `to`. Field paths name agents by their name: `agents["billing"].model`. */
export function diffGraphs(from: AgentGraph, to: AgentGraph): GraphDiff {
  const a = graphElements(from);
  const b = graphElements(to);
  const nodes = new Map<NodeId, DiffMark>();
  for (const [id, print] of b.nodes) {
    const old = a.nodes.get(id);
    if (old === undefined) nodes.set(id, "added");
    else if (old !== print) nodes.set(id, "changed");
  }
  for (const id of a.nodes.keys()) if (!b.nodes.has(id)) nodes.set(id, "removed");
  const edges = new Map<string, DiffMark>();
  for (const id of b.edges) if (!a.edges.has(id)) edges.set(id, "added");
  for (const id of a.edges) if (!b.edges.has(id)) edges.set(id, "removed");

  const fields: FieldChange[] = [];
  fieldChanges(from.entryAgent, to.entryAgent, "", ["entryAgent"], fields);
  fieldChanges(from.mode, to.mode, "", ["mode"], fields);
  fieldChanges(from.plan, to.plan, "", ["plan"], fields);
  fieldChanges(from.limits, to.limits, "", ["limits"], fields);
  const byName = (g: AgentGraph) => new Map(g.agents.map((x) => [x.name, x]));
  const before = byName(from);
  const after = byName(to);
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const x = before.get(name);
    const y = after.get(name);
    if (!x || !y) fields.push({ path: `agents[${JSON.stringify(name)}]`, ...(x ? { before: "(agent)" } : { after: "(agent)" }) });
    // Agents are matched by name, so reordering them is not a change.
    else fieldChanges(x, y, `agents[${JSON.stringify(name)}]`, [], fields);
  }
  return { nodes, edges, fields };
}

/** Both graphs in one, for showing a diff on the canvas: `to`, plus whatever only `from` had. */
export function unionGraph(from: AgentGraph, to: AgentGraph): AgentGraph {
  const names = new Set(to.agents.map((a) => a.name));
  const agents = to.agents.map((agent) => {
    const old = from.agents.find((a) => a.name === agent.name);
    if (!old) return agent;
    const merge = <T>(now: T[], was: T[], key: (v: T) => string) => [...now, ...was.filter((v) => !now.some((n) => key(n) === key(v)))];
    return {
      ...agent,
      tools: merge(agent.tools, old.tools, (t) => t),
      subAgents: merge(agent.subAgents, old.subAgents, (s) => s),
      handoffs: merge(agent.handoffs, old.handoffs, (h) => h),
      mcpServers: merge(agent.mcpServers, old.mcpServers, (s) => s.name),
    };
  });
  const removed = from.agents.filter((a) => !names.has(a.name));
  return { ...to, agents: [...agents, ...removed], layout: { nodes: { ...from.layout?.nodes, ...to.layout?.nodes } } };
}
