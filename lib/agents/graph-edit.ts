// Pure edits of an agent graph as the designer makes them. Every edit returns a
// new graph (structural sharing), so undo/redo can keep earlier graphs as they
// are, and node positions (graph.layout) follow renames and deletions.
import { agentSchema, mcpServerSchema, type AgentConfig, type AgentGraph, type McpServerConfig } from "./schemas";

export type NodeId = string;
export interface Point {
  x: number;
  y: number;
}

export const agentNodeId = (name: string): NodeId => `agent:${name}`;
export const toolNodeId = (tool: string): NodeId => `tool:${tool}`;
export const mcpNodeId = (agent: string, server: string): NodeId => `mcp:${agent}:${server}`;

export type ParsedNodeId = { kind: "agent"; agent: string } | { kind: "tool"; tool: string } | { kind: "mcp"; agent: string; server: string };

/** Splits a node id back into what it names (agent and MCP server names contain no colon). */
export function parseNodeId(id: NodeId): ParsedNodeId | null {
  const [kind, a, b] = id.split(":");
  if (kind === "agent" && a) return { kind, agent: a };
  if (kind === "tool" && a) return { kind, tool: a };
  if (kind === "mcp" && a && b) return { kind, agent: a, server: b };
  return null;
}

/** A blank agent with the schema's defaults. */
export function blankAgent(name: string): AgentConfig {
  return agentSchema.parse({ name });
}

/** The first of `base`, `base-2`, `base-3`, … that no agent uses. */
export function freeAgentName(graph: AgentGraph, base: string): string {
  const taken = new Set(graph.agents.map((a) => a.name));
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

function withPositions(graph: AgentGraph, positions: Record<NodeId, Point>): AgentGraph {
  return { ...graph, layout: { nodes: { ...graph.layout?.nodes, ...positions } } };
}

function withoutPositions(graph: AgentGraph, ids: (id: NodeId) => boolean): AgentGraph {
  if (!graph.layout) return graph;
  const nodes = Object.fromEntries(Object.entries(graph.layout.nodes).filter(([id]) => !ids(id)));
  return { ...graph, layout: { nodes } };
}

/** Moves nodes (positions only; the engine ignores them). */
export function moveNodes(graph: AgentGraph, positions: Record<NodeId, Point>): AgentGraph {
  return withPositions(graph, positions);
}

/** Adds a blank agent at a position. */
export function addAgent(graph: AgentGraph, at: Point, base = "agent"): { graph: AgentGraph; name: string } {
  const name = freeAgentName(graph, base);
  return { graph: withPositions({ ...graph, agents: [...graph.agents, blankAgent(name)] }, { [agentNodeId(name)]: at }), name };
}

/**
 * The agent with every name it links to (sub-agents, handoffs, a router's
 * default agent) passed through `rename`; the same object when none changes.
 */
function renameLinks(agent: AgentConfig, rename: (name: string) => string): AgentConfig {
  const subAgents = agent.subAgents.map(rename);
  const handoffs = agent.handoffs.map(rename);
  const defaultAgent = agent.router?.defaultAgent === undefined ? undefined : rename(agent.router.defaultAgent);
  const same = subAgents.every((s, i) => s === agent.subAgents[i]) && handoffs.every((h, i) => h === agent.handoffs[i]) && defaultAgent === agent.router?.defaultAgent;
  if (same) return agent;
  return { ...agent, subAgents, handoffs, ...(agent.router ? { router: { ...agent.router, defaultAgent } } : {}) };
}

/** Replaces one agent's configuration; a new name is carried into links, the entry agent and positions. */
export function updateAgent(graph: AgentGraph, index: number, next: AgentConfig): AgentGraph {
  const previous = graph.agents[index];
  if (!previous) return graph;
  const agents = graph.agents.map((a, i) => (i === index ? next : a));
  if (previous.name === next.name) return { ...graph, agents };
  const renamed = agents.map((a) => renameLinks(a, (s) => (s === previous.name ? next.name : s)));
  const layout = graph.layout
    ? {
        nodes: Object.fromEntries(
          Object.entries(graph.layout.nodes).map(([id, p]) => {
            const parsed = parseNodeId(id);
            if (parsed?.kind === "agent" && parsed.agent === previous.name) return [agentNodeId(next.name), p];
            if (parsed?.kind === "mcp" && parsed.agent === previous.name) return [mcpNodeId(next.name, parsed.server), p];
            return [id, p];
          }),
        ),
      }
    : undefined;
  return { ...graph, agents: renamed, entryAgent: graph.entryAgent === previous.name ? next.name : graph.entryAgent, ...(layout ? { layout } : {}) };
}

/** Places a built-in tool node; attaches it to `agent` when given. */
export function addTool(graph: AgentGraph, tool: string, at: Point, agent?: string): AgentGraph {
  const placed = withPositions(graph, { [toolNodeId(tool)]: at });
  return agent ? connect(placed, agentNodeId(agent), toolNodeId(tool)) : placed;
}

/** Adds a reference to a registered MCP server (the demo server "kb" by default) to an agent. */
export function addMcpServer(graph: AgentGraph, agent: string, at: Point, server?: McpServerConfig): { graph: AgentGraph; server: string } {
  const index = graph.agents.findIndex((a) => a.name === agent);
  const owner = graph.agents[index];
  if (!owner) return { graph, server: "" };
  const taken = new Set(owner.mcpServers.map((s) => s.name));
  let name = server?.name ?? "kb";
  for (let i = 2; taken.has(name); i++) name = `${server?.name ?? "kb"}${i}`;
  const config = mcpServerSchema.parse(
    server ? { ...server, name } : { name },
  );
  const next = updateAgent(graph, index, { ...owner, mcpServers: [...owner.mcpServers, config] });
  return { graph: withPositions(next, { [mcpNodeId(agent, name)]: at }), server: name };
}

/** Whether an edge from `source` to `target` is one the graph can express. */
export function canConnect(graph: AgentGraph, source: NodeId, target: NodeId): boolean {
  const from = parseNodeId(source);
  const to = parseNodeId(target);
  if (from?.kind !== "agent" || !to || source === target) return false;
  if (to.kind === "mcp") return false; // an MCP server belongs to the agent it was added to
  return graph.agents.some((a) => a.name === from.agent);
}

/** What an agent → agent link means: a sub-agent answers back to its caller; a handoff transfers control for good. */
export type AgentLinkKind = "sub" | "handoff";

/**
 * Adds the link an edge stands for: agent → tool a built-in tool; agent → agent
 * a sub-agent or a handoff (`kind`). Two agents already linked either way stay
 * as they are (setLinkKind changes the kind).
 */
export function connect(graph: AgentGraph, source: NodeId, target: NodeId, kind: AgentLinkKind = "sub"): AgentGraph {
  if (!canConnect(graph, source, target)) return graph;
  const from = parseNodeId(source);
  const to = parseNodeId(target);
  const index = graph.agents.findIndex((a) => from?.kind === "agent" && a.name === from.agent);
  const agent = graph.agents[index];
  if (!agent || !to) return graph;
  if (to.kind === "agent") return agent.subAgents.includes(to.agent) || agent.handoffs.includes(to.agent) ? graph : setLinkKind(graph, agent.name, to.agent, kind);
  if (to.kind === "tool" && !agent.tools.includes(to.tool)) return updateAgent(graph, index, { ...agent, tools: [...agent.tools, to.tool] });
  return graph;
}

/** Links `from` → `to` as `kind`, removing a link of the other kind between them (and nothing else). */
export function setLinkKind(graph: AgentGraph, from: string, to: string, kind: AgentLinkKind): AgentGraph {
  const index = graph.agents.findIndex((a) => a.name === from);
  const agent = graph.agents[index];
  if (!agent || from === to) return graph;
  const subAgents = kind === "sub" ? (agent.subAgents.includes(to) ? agent.subAgents : [...agent.subAgents, to]) : agent.subAgents.filter((s) => s !== to);
  const handoffs = kind === "handoff" ? (agent.handoffs.includes(to) ? agent.handoffs : [...agent.handoffs, to]) : agent.handoffs.filter((h) => h !== to);
  // Links are only added or removed here, so equal lengths mean nothing changed.
  if (subAgents.length === agent.subAgents.length && handoffs.length === agent.handoffs.length) return graph;
  return updateAgent(graph, index, withoutStaleDefault({ ...agent, subAgents, handoffs }));
}

/** A router whose default agent is no longer one of its children forgets it (the validator would refuse it). */
function withoutStaleDefault(agent: AgentConfig): AgentConfig {
  const fallback = agent.router?.defaultAgent;
  if (!agent.router || fallback === undefined || agent.subAgents.includes(fallback)) return agent;
  return { ...agent, router: { threshold: agent.router.threshold, maxAttempts: agent.router.maxAttempts } };
}

export const subAgentEdgeId = (parent: string, child: string) => `sub:${parent}>${child}`;
export const toolEdgeId = (agent: string, tool: string) => `tool:${agent}>${tool}`;
export const mcpEdgeId = (agent: string, server: string) => `mcp:${agent}>${server}`;
export const handoffEdgeId = (from: string, to: string) => `handoff:${from}>${to}`;

export type ParsedEdgeId = { kind: AgentLinkKind; from: string; to: string } | { kind: "tool"; agent: string; tool: string } | { kind: "mcp"; agent: string; server: string };

/** Splits an edge id back into what it links (names contain neither ":" nor ">"). */
export function parseEdgeId(id: string): ParsedEdgeId | null {
  const match = /^(sub|handoff|tool|mcp):([^:>]+)>(.+)$/.exec(id);
  if (!match) return null;
  const [, kind, a = "", b = ""] = match;
  if (kind === "sub" || kind === "handoff") return { kind, from: a, to: b };
  if (kind === "tool") return { kind, agent: a, tool: b };
  return { kind: "mcp", agent: a, server: b };
}

/**
 * Deletes nodes and edges as one edit. An agent takes its MCP servers and the
 * links to it with it (the entry role passes to the first agent left); a tool
 * node is detached from every agent; an edge removes the link it stands for
 * (a router whose default agent goes with it forgets it).
 */
export function deleteElements(graph: AgentGraph, nodeIds: readonly NodeId[], edgeIds: readonly string[]): AgentGraph {
  const agentsGone = new Set<string>();
  const toolsGone = new Set<string>();
  const mcpGone = new Set<string>();
  for (const id of nodeIds) {
    const parsed = parseNodeId(id);
    if (parsed?.kind === "agent") agentsGone.add(parsed.agent);
    if (parsed?.kind === "tool") toolsGone.add(parsed.tool);
    if (parsed?.kind === "mcp") mcpGone.add(`${parsed.agent}>${parsed.server}`);
  }
  const edges = new Set(edgeIds);
  const remaining = graph.agents.filter((a) => !agentsGone.has(a.name));
  // Deleting every agent would leave nothing to edit; the schema needs one.
  if (remaining.length === 0) return graph;
  const agents = remaining.map((a) => {
    const subAgents = a.subAgents.filter((s) => !agentsGone.has(s) && !edges.has(subAgentEdgeId(a.name, s)));
    const handoffs = a.handoffs.filter((h) => !agentsGone.has(h) && !edges.has(handoffEdgeId(a.name, h)));
    const tools = a.tools.filter((t) => !toolsGone.has(t) && !edges.has(toolEdgeId(a.name, t)));
    const mcpServers = a.mcpServers.filter((s) => !mcpGone.has(`${a.name}>${s.name}`) && !edges.has(mcpEdgeId(a.name, s.name)));
    const unchanged = subAgents.length === a.subAgents.length && handoffs.length === a.handoffs.length && tools.length === a.tools.length && mcpServers.length === a.mcpServers.length;
    return unchanged ? a : withoutStaleDefault({ ...a, subAgents, handoffs, tools, mcpServers });
  });
  const entryAgent = agentsGone.has(graph.entryAgent) ? (agents[0]?.name ?? graph.entryAgent) : graph.entryAgent;
  const next = { ...graph, agents, entryAgent };
  return withoutPositions(next, (id) => {
    const parsed = parseNodeId(id);
    if (parsed?.kind === "agent") return agentsGone.has(parsed.agent);
    if (parsed?.kind === "tool") return toolsGone.has(parsed.tool);
    if (parsed?.kind === "mcp") return agentsGone.has(parsed.agent) || mcpGone.has(`${parsed.agent}>${parsed.server}`) || !agents.some((a) => a.name === parsed.agent && a.mcpServers.some((s) => s.name === parsed.server));
    return false;
  });
}

/**
 * Pastes copies of agents with fresh names, shifted by `offset`. Links between
 * the copied agents point at the copies; links to other agents are kept.
 */
export function pasteAgents(graph: AgentGraph, copied: readonly { agent: AgentConfig; position: Point }[], offset: Point): { graph: AgentGraph; names: string[] } {
  let next = graph;
  const renames = new Map<string, string>();
  for (const { agent } of copied) {
    const name = freeAgentName(next, `${agent.name}-copy`.slice(0, 64));
    renames.set(agent.name, name);
    next = { ...next, agents: [...next.agents, { ...agent, name }] };
  }
  const copies = new Set(renames.values());
  const remapped = next.agents.map((a) => (copies.has(a.name) ? renameLinks(a, (s) => renames.get(s) ?? s) : a));
  const positions: Record<NodeId, Point> = {};
  for (const { agent, position } of copied) {
    const name = renames.get(agent.name);
    if (name) positions[agentNodeId(name)] = { x: position.x + offset.x, y: position.y + offset.y };
  }
  return { graph: withPositions({ ...next, agents: remapped }, positions), names: [...renames.values()] };
}
