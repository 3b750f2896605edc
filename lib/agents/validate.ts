// Validates an agent graph and reports every problem with its path
// (e.g. `agents[2].subAgents[0]`), so the designer can point at it.
import { agentGraphSchema, type AgentGraph } from "./schemas";
import { BUILTIN_TOOL_IDS, MCP_TOOL_SEPARATOR, RESERVED_TOOL_NAMES } from "../tools/catalog";
import { matchesGlob } from "./glob";
import { formatPath } from "../errors";

export interface GraphIssue {
  path: string;
  message: string;
  code:
    | "invalid"
    | "duplicate_name"
    | "unknown_entry_agent"
    | "unknown_sub_agent"
    | "duplicate_sub_agent"
    | "cycle"
    | "reserved_tool_name"
    | "unknown_tool"
    | "duplicate_mcp_server"
    | "inline_mcp_server"
    | "pattern_matches_nothing"
    | "unreachable_agent";
  /** The agents the problem concerns beyond its path (a cycle names every agent on it), so the designer marks each. */
  agents?: string[];
}

export type GraphValidation =
  | { ok: true; graph: AgentGraph; errors: []; warnings: GraphIssue[] }
  | {
      ok: false;
      graph?: undefined;
      errors: GraphIssue[];
      warnings: GraphIssue[];
      /** The graph when only its meaning failed (zod passed): a stored legacy version still loads from it. */
      parsed?: AgentGraph;
    };

export const INLINE_MCP_MESSAGE = "inline MCP servers are no longer run: register this server in Admin › MCP servers and reference it by name";

/**
 * Whether a stored graph may still be opened although it fails validation:
 * its only problems are legacy inline MCP transports. It loads so an admin can
 * register the servers, but every save and run still refuses it.
 */
export function loadableLegacyGraph(validation: GraphValidation): AgentGraph | null {
  if (validation.ok) return validation.graph;
  return validation.parsed && validation.errors.every((e) => e.code === "inline_mcp_server") ? validation.parsed : null;
}

/** Finds the cycles through sub-agent links (one per link that closes one), each as the names around it. */
function findCycles(graph: AgentGraph): string[][] {
  const byName = new Map(graph.agents.map((a) => [a.name, a]));
  const state = new Map<string, "visiting" | "done">();
  const cycles: string[][] = [];
  const stack: string[] = [];
  const visit = (name: string) => {
    state.set(name, "visiting");
    stack.push(name);
    for (const child of new Set(byName.get(name)?.subAgents ?? [])) {
      if (!byName.has(child)) continue;
      if (state.get(child) === "visiting") cycles.push([...stack.slice(stack.indexOf(child)), child]);
      else if (!state.has(child)) visit(child);
    }
    stack.pop();
    state.set(name, "done");
  };
  for (const agent of graph.agents) if (!state.has(agent.name)) visit(agent.name);
  return cycles;
}

/** Names the model could call for an agent, known before any MCP server is contacted. */
export function knownToolNames(agent: AgentGraph["agents"][number]): string[] {
  const names = [...agent.tools];
  if (agent.subAgents.length > 0) names.push("message_agent");
  for (const server of agent.mcpServers) {
    for (const tool of server.allowTools ?? []) names.push(`${server.name}${MCP_TOOL_SEPARATOR}${tool}`);
  }
  return names;
}

/** Validates structure (zod) then meaning (see checkAgentGraph). */
export function validateAgentGraph(input: unknown): GraphValidation {
  const parsed = agentGraphSchema.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      // A problem with the value as a whole (not an object, say) has no path of its own: "(root)", as the HTTP error mapper writes it.
      errors: parsed.error.issues.map((i) => ({ path: formatPath(i.path) || "(root)", message: i.message, code: "invalid" })),
      warnings: [],
    };
  }
  const { errors, warnings } = checkAgentGraph(parsed.data);
  return errors.length === 0 ? { ok: true, graph: parsed.data, errors: [], warnings } : { ok: false, errors, warnings, parsed: parsed.data };
}

/**
 * The checks of meaning on a structurally valid graph: names, references,
 * repeated sub-agents, cycles, tools, patterns, and agents the entry agent can
 * never reach. Linear in the size of the graph (plus the glob matching of rules).
 */
export function checkAgentGraph(graph: AgentGraph): { errors: GraphIssue[]; warnings: GraphIssue[] } {
  const errors: GraphIssue[] = [];
  const warnings: GraphIssue[] = [];
  const firstIndex = new Map<string, number>();

  graph.agents.forEach((agent, i) => {
    const earlier = firstIndex.get(agent.name);
    if (earlier !== undefined) {
      errors.push({ path: `agents[${i}].name`, message: `duplicate agent name "${agent.name}" (also agents[${earlier}])`, code: "duplicate_name" });
    } else {
      firstIndex.set(agent.name, i);
    }
  });

  if (!firstIndex.has(graph.entryAgent)) {
    errors.push({ path: "entryAgent", message: `no agent is named "${graph.entryAgent}"`, code: "unknown_entry_agent" });
  }

  graph.agents.forEach((agent, i) => {
    const listedAt = new Map<string, number>();
    agent.subAgents.forEach((child, k) => {
      const earlier = listedAt.get(child);
      if (earlier !== undefined) {
        errors.push({
          path: `agents[${i}].subAgents[${k}]`,
          message: `sub-agent "${child}" is listed twice (also agents[${i}].subAgents[${earlier}])`,
          code: "duplicate_sub_agent",
        });
        return;
      }
      listedAt.set(child, k);
      if (!firstIndex.has(child)) {
        errors.push({ path: `agents[${i}].subAgents[${k}]`, message: `unknown sub-agent "${child}"`, code: "unknown_sub_agent" });
      }
    });
    agent.tools.forEach((tool, k) => {
      if ((RESERVED_TOOL_NAMES as readonly string[]).includes(tool)) {
        errors.push({ path: `agents[${i}].tools[${k}]`, message: `"${tool}" is reserved: the engine adds it for agents with sub-agents`, code: "reserved_tool_name" });
      } else if (!BUILTIN_TOOL_IDS.includes(tool)) {
        errors.push({ path: `agents[${i}].tools[${k}]`, message: `unknown built-in tool "${tool}"`, code: "unknown_tool" });
      }
    });
    const serverNames = new Set<string>();
    agent.mcpServers.forEach((server, s) => {
      if (serverNames.has(server.name)) {
        errors.push({ path: `agents[${i}].mcpServers[${s}].name`, message: `duplicate MCP server name "${server.name}"`, code: "duplicate_mcp_server" });
      }
      serverNames.add(server.name);
      // An inline command or URL would let whoever edits the graph run it: only registered servers run.
      if (server.transport) {
        errors.push({ path: `agents[${i}].mcpServers[${s}].transport`, message: INLINE_MCP_MESSAGE, code: "inline_mcp_server" });
      }
      (server.allowTools ?? []).forEach((tool, t) => {
        if ((RESERVED_TOOL_NAMES as readonly string[]).includes(tool)) {
          errors.push({ path: `agents[${i}].mcpServers[${s}].allowTools[${t}]`, message: `"${tool}" is reserved`, code: "reserved_tool_name" });
        }
      });
    });
    const names = knownToolNames(agent);
    // Without an allow-list, a server's tools are only known at run time: a
    // pattern aimed at that server (prefix `name__`) may still match.
    const openPrefixes = agent.mcpServers.filter((s) => !s.allowTools).map((s) => `${s.name}${MCP_TOOL_SEPARATOR}`);
    agent.approvalRules.forEach((rule, r) => {
      const matches = names.some((n) => matchesGlob(rule.pattern, n)) || openPrefixes.some((p) => rule.pattern.startsWith(p) || rule.pattern === "*");
      if (!matches) {
        warnings.push({
          path: `agents[${i}].approvalRules[${r}].pattern`,
          message: `"${rule.pattern}" matches none of this agent's tools (${names.join(", ") || "none"})`,
          code: "pattern_matches_nothing",
        });
      }
    });
  });

  for (const cycle of findCycles(graph)) {
    const start = cycle[0] ?? "";
    const index = firstIndex.get(start) ?? 0;
    const next = cycle[1] ?? "";
    const linkIndex = graph.agents[index]?.subAgents.indexOf(next) ?? 0;
    errors.push({ path: `agents[${index}].subAgents[${linkIndex}]`, message: `sub-agent cycle: ${cycle.join(" → ")}`, code: "cycle", agents: [...new Set(cycle)] });
  }

  for (const index of unreachableAgents(graph, firstIndex)) {
    warnings.push({
      path: `agents[${index}]`,
      message: `"${graph.agents[index]?.name ?? ""}" is not reachable from the entry agent "${graph.entryAgent}" through sub-agent links, so no run will use it`,
      code: "unreachable_agent",
    });
  }

  return { errors, warnings };
}

/** Indexes of agents no chain of sub-agent links leads to from the entry agent (none when the entry agent is unknown). */
function unreachableAgents(graph: AgentGraph, firstIndex: ReadonlyMap<string, number>): number[] {
  const entry = firstIndex.get(graph.entryAgent);
  if (entry === undefined) return [];
  const reached = new Set<number>([entry]);
  const toVisit = [entry];
  for (let next = toVisit.pop(); next !== undefined; next = toVisit.pop()) {
    for (const child of graph.agents[next]?.subAgents ?? []) {
      const index = firstIndex.get(child);
      if (index !== undefined && !reached.has(index)) {
        reached.add(index);
        toVisit.push(index);
      }
    }
  }
  // A second agent with a taken name is already an error; links always lead to the first.
  return graph.agents.flatMap((agent, i) => (!reached.has(i) && firstIndex.get(agent.name) === i ? [i] : []));
}
