// Ties the validator's path-addressed issues to canvas nodes and inspector
// fields, so one problem shows on its node, next to its field and in the list.
import type { AgentGraph } from "./schemas";
import type { GraphIssue } from "./validate";
import { agentNodeId, mcpNodeId, toolNodeId, type NodeId } from "./graph-edit";

export interface NodeIssues {
  errors: GraphIssue[];
  warnings: GraphIssue[];
}

const AGENT_PATH = /^agents\[(\d+)\](?:\.(\w+)(?:\[(\d+)\])?)?/;

/** The nodes an issue belongs to: its agent (or MCP server), every agent it names, and a tool it points at. */
export function nodesForIssue(graph: Pick<AgentGraph, "agents">, issue: GraphIssue): NodeId[] {
  const ids = new Set<NodeId>();
  for (const name of issue.agents ?? []) ids.add(agentNodeId(name));
  if (issue.path === "entryAgent") ids.add(agentNodeId(graph.agents[0]?.name ?? ""));
  const match = AGENT_PATH.exec(issue.path);
  const agent = match ? graph.agents[Number(match[1])] : undefined;
  if (agent) {
    const [, , field, index] = match ?? [];
    const server = field === "mcpServers" && index !== undefined ? agent.mcpServers[Number(index)] : undefined;
    if (server) ids.add(mcpNodeId(agent.name, server.name));
    else ids.add(agentNodeId(agent.name));
    const tool = field === "tools" && index !== undefined ? agent.tools[Number(index)] : undefined;
    if (tool) ids.add(toolNodeId(tool));
  }
  return [...ids];
}

/** Errors and warnings grouped by node id. */
export function issuesByNode(graph: Pick<AgentGraph, "agents">, errors: readonly GraphIssue[], warnings: readonly GraphIssue[]): Map<NodeId, NodeIssues> {
  const byNode = new Map<NodeId, NodeIssues>();
  const add = (issue: GraphIssue, kind: keyof NodeIssues) => {
    for (const id of nodesForIssue(graph, issue)) {
      let entry = byNode.get(id);
      if (!entry) byNode.set(id, (entry = { errors: [], warnings: [] }));
      entry[kind].push(issue);
    }
  };
  for (const e of errors) add(e, "errors");
  for (const w of warnings) add(w, "warnings");
  return byNode;
}

/** Issues whose path is `prefix` or inside it (`agents[1].approvalRules` covers `agents[1].approvalRules[0].pattern`). */
export function issuesAt<T extends GraphIssue>(issues: readonly T[], prefix: string): T[] {
  return issues.filter((i) => i.path === prefix || i.path.startsWith(`${prefix}.`) || i.path.startsWith(`${prefix}[`));
}
