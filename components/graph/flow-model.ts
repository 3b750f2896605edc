// From an agent graph to React Flow nodes and edges. Node objects are reused
// while what they show is unchanged, so memoized nodes do not re-render when
// one node of a large graph moves or changes.
import type { Edge, Node } from "@xyflow/react";
import type { AgentGraph } from "@/lib/agents/schemas";
import { BUILTIN_TOOLS } from "@/lib/tools/catalog";
import { agentNodeId, handoffEdgeId, mcpEdgeId, mcpNodeId, subAgentEdgeId, toolEdgeId, toolNodeId, type Point } from "@/lib/agents/graph-edit";
import type { NodeIssues } from "@/lib/agents/graph-issues";
import type { DiffMark } from "@/lib/agents/graph-diff";
import { layoutPositions, type LayoutNode } from "./auto-layout";

export interface AgentNodeData extends Record<string, unknown> {
  name: string;
  model: string;
  tools: number;
  subAgents: number;
  handoffs: number;
  mcpServers: number;
  /** A router answers with a routing decision; its sub-agents are its children. */
  router: boolean;
  /** The agent's answer must match a JSON Schema. */
  typed: boolean;
  /** Its guardrails as "name: action" (lib/guardrails), in their order; the node's shield counts them. */
  guardrails: string[];
  entry: boolean;
  errors: number;
  warnings: number;
  firstProblem: string | null;
  mark: DiffMark | null;
}
export interface ToolNodeData extends Record<string, unknown> {
  tool: string;
  description: string;
  known: boolean;
  errors: number;
  mark: DiffMark | null;
}
export interface McpNodeData extends Record<string, unknown> {
  agent: string;
  server: string;
  transport: string;
  tools: readonly string[] | null;
  errors: number;
  mark: DiffMark | null;
}
export type AgentFlowNode = Node<AgentNodeData, "agent">;
export type ToolFlowNode = Node<ToolNodeData, "tool">;
export type McpFlowNode = Node<McpNodeData, "mcp">;
export type DesignerNode = AgentFlowNode | ToolFlowNode | McpFlowNode;

export interface FlowInputs {
  graph: AgentGraph;
  issues: ReadonlyMap<string, NodeIssues>;
  selected: ReadonlySet<string>;
  marks?: ReadonlyMap<string, DiffMark>;
  edgeMarks?: ReadonlyMap<string, DiffMark>;
  /** Tools found by "Discover tools", per MCP node id (shown when the server has no allow-list). */
  discovered?: ReadonlyMap<string, readonly string[]>;
  /** Sizes React Flow measured; carried into new node objects so they are not hidden until measured again. */
  measured: ReadonlyMap<string, { width: number; height: number }>;
}

const TOOL_INFO = new Map<string, string>(BUILTIN_TOOLS.map((t) => [t.id, t.description]));

type Described = { id: string; kind: LayoutNode["kind"]; type: DesignerNode["type"]; data: DesignerNode["data"] };
type Link = { id: string; source: string; target: string; kind: "sub" | "handoff" | "tool" | "mcp" };

function describe({ graph, issues, marks, discovered }: FlowInputs): { nodes: Described[]; links: Link[] } {
  const nodes: Described[] = [];
  const links: Link[] = [];
  const tools = new Set<string>();
  const count = (id: string) => issues.get(id);
  for (const agent of graph.agents) {
    const id = agentNodeId(agent.name);
    const found = count(id);
    nodes.push({
      id,
      kind: "agent",
      type: "agent",
      data: {
        name: agent.name,
        model: agent.model,
        tools: agent.tools.length,
        subAgents: agent.subAgents.length,
        handoffs: agent.handoffs.length,
        mcpServers: agent.mcpServers.length,
        router: agent.kind === "router",
        typed: agent.outputSchema !== undefined,
        guardrails: agent.guardrails.map((g) => `${g.name}: ${g.action}`),
        entry: graph.entryAgent === agent.name,
        errors: found?.errors.length ?? 0,
        warnings: found?.warnings.length ?? 0,
        firstProblem: found?.errors[0]?.message ?? found?.warnings[0]?.message ?? null,
        mark: marks?.get(id) ?? null,
      } satisfies AgentNodeData,
    });
    for (const child of new Set(agent.subAgents)) links.push({ id: subAgentEdgeId(agent.name, child), source: id, target: agentNodeId(child), kind: "sub" });
    for (const target of new Set(agent.handoffs)) links.push({ id: handoffEdgeId(agent.name, target), source: id, target: agentNodeId(target), kind: "handoff" });
    for (const tool of new Set(agent.tools)) {
      tools.add(tool);
      links.push({ id: toolEdgeId(agent.name, tool), source: id, target: toolNodeId(tool), kind: "tool" });
    }
    for (const server of agent.mcpServers) {
      const mid = mcpNodeId(agent.name, server.name);
      nodes.push({
        id: mid,
        kind: "mcp",
        type: "mcp",
        data: {
          agent: agent.name,
          server: server.name,
          // The command or URL lives in the admin's registry; a legacy inline one is only flagged.
          transport: server.transport ? "inline: an admin must register it" : "registered server",
          tools: server.allowTools ?? discovered?.get(mid) ?? null,
          errors: count(mid)?.errors.length ?? 0,
          mark: marks?.get(mid) ?? null,
        } satisfies McpNodeData,
      });
      links.push({ id: mcpEdgeId(agent.name, server.name), source: id, target: mid, kind: "mcp" });
    }
  }
  // Tool nodes placed from the palette but not linked yet stay on the canvas.
  for (const id of Object.keys(graph.layout?.nodes ?? {})) if (id.startsWith("tool:")) tools.add(id.slice(5));
  for (const tool of tools) {
    const id = toolNodeId(tool);
    nodes.push({ id, kind: "tool", type: "tool", data: { tool, description: TOOL_INFO.get(tool) ?? "unknown tool", known: TOOL_INFO.has(tool), errors: count(id)?.errors.length ?? 0, mark: marks?.get(id) ?? null } satisfies ToolNodeData });
  }
  return { nodes, links };
}

function sameData(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  for (const key in b) if (a[key] !== b[key] && JSON.stringify(a[key]) !== JSON.stringify(b[key])) return false;
  return true;
}

/**
 * Positions for nodes the layout lacks: a few (a tool ticked in the inspector)
 * go below a node that links to them; many (a graph never drawn) get dagre.
 */
function missingPositions(list: readonly Described[], links: readonly { source: string; target: string }[], saved: Readonly<Record<string, Point>>): Record<string, Point> | null {
  const missing = list.filter((n) => !saved[n.id]);
  if (missing.length === 0) return null;
  if (missing.length > 5) return layoutPositions(list, links);
  const placed: Record<string, Point> = {};
  missing.forEach((n, k) => {
    const parent = links.find((l) => l.target === n.id && saved[l.source]);
    const anchor = parent ? saved[parent.source] : undefined;
    placed[n.id] = anchor ? { x: anchor.x + 40 * k, y: anchor.y + 150 } : { x: 40 * k, y: -150 };
  });
  return placed;
}

/** Tool nodes placed from the palette (their ids as one string, to notice when the set changes). */
const placedTools = (graph: AgentGraph) =>
  Object.keys(graph.layout?.nodes ?? {})
    .filter((id) => id.startsWith("tool:"))
    .join(",");

const LINK_CLASS: Record<Link["kind"], string> = { sub: "link-sub", handoff: "link-handoff", tool: "link-tool", mcp: "link-tool" };

/** Handoffs read differently from sub-agent links without relying on colour alone: dashed and labelled. */
const LINK_LOOK: Partial<Record<Link["kind"], Partial<Edge>>> = {
  sub: { ariaLabel: "sub-agent link (answers back)" },
  handoff: { label: "handoff", ariaLabel: "handoff link (takes over)", labelStyle: { fill: "#c2410c", fontWeight: 600 }, labelBgStyle: { fill: "#fff7ed" } },
};

/**
 * A builder that remembers what it made last time. What nodes show is described
 * again only when the agents, issues or marks change; while a node is dragged
 * only positions are compared, and unchanged nodes keep their objects.
 */
export function createFlowBuilder() {
  let previous = new Map<string, DesignerNode>();
  let previousEdges = new Map<string, Edge>();
  let described: ReturnType<typeof describe> | null = null;
  let describedFrom: unknown[] = [];

  return function build(inputs: FlowInputs): { nodes: DesignerNode[]; edges: Edge[] } {
    const from = [inputs.graph.agents, inputs.graph.entryAgent, inputs.issues, inputs.marks, inputs.edgeMarks, inputs.discovered, placedTools(inputs.graph)];
    const redescribe = !described || from.some((value, i) => value !== describedFrom[i]);
    if (redescribe || !described) {
      described = describe(inputs);
      describedFrom = from;
    }
    const { nodes: list, links } = described;
    const saved = inputs.graph.layout?.nodes ?? {};
    const fallback = missingPositions(list, links, saved);
    const next = new Map<string, DesignerNode>();
    const nodes = list.map((d) => {
      const position = saved[d.id] ?? fallback?.[d.id] ?? { x: 0, y: 0 };
      const selected = inputs.selected.has(d.id);
      const old = previous.get(d.id);
      const measured = inputs.measured.get(d.id);
      const node =
        old &&
        old.position.x === position.x &&
        old.position.y === position.y &&
        Boolean(old.selected) === selected &&
        old.measured?.width === measured?.width &&
        old.measured?.height === measured?.height &&
        old.type === d.type &&
        (!redescribe || sameData(old.data, d.data))
          ? old
          : ({ id: d.id, type: d.type, position, data: redescribe || !old ? d.data : old.data, selected, ...(measured ? { measured } : {}) } as DesignerNode);
      next.set(d.id, node);
      return node;
    });
    previous = next;
    const nextEdges = new Map<string, Edge>();
    const edges: Edge[] = links.map((l) => {
      const mark = inputs.edgeMarks?.get(l.id) ?? undefined;
      const selected = inputs.selected.has(l.id);
      const className = mark ? `diff-${mark}` : LINK_CLASS[l.kind];
      const old = previousEdges.get(l.id);
      const edge = old && old.selected === selected && old.className === className ? old : { id: l.id, source: l.source, target: l.target, selected, className, ...LINK_LOOK[l.kind] };
      nextEdges.set(l.id, edge);
      return edge;
    });
    previousEdges = nextEdges;
    return { nodes, edges };
  };
}

/** The graph with a position for every node: nodes it has none for are placed by auto-layout. */
export function withFullLayout(graph: AgentGraph, relayoutAll = false): AgentGraph {
  const { nodes, links } = describe({ graph, issues: new Map(), selected: new Set(), measured: new Map() });
  const saved = graph.layout?.nodes ?? {};
  if (!relayoutAll && nodes.every((n) => saved[n.id])) return graph;
  const placed = layoutPositions(nodes, links);
  const positions = relayoutAll ? placed : Object.fromEntries(nodes.filter((n) => !saved[n.id]).map((n) => [n.id, placed[n.id] ?? { x: 0, y: 0 }]));
  return { ...graph, layout: { nodes: { ...saved, ...positions } } };
}
