// Validates an agent graph and reports every problem with its path
// (e.g. `agents[2].subAgents[0]`), so the designer can point at it.
import { agentGraphSchema, MAX_OUTPUT_SCHEMA_BYTES, type AgentGraph } from "./schemas";
import { INHERIT_MODEL } from "./model-inheritance";
import { BUILTIN_TOOL_IDS, MCP_TOOL_SEPARATOR, RESERVED_TOOL_NAMES } from "../tools/catalog";
import { matchesGlob } from "./glob";
import { formatPath } from "../errors";
import { approvalRuleTimingIssues, runApprovalTimingWarnings } from "./approval-timing";
import { checkGuardrails, guardrailSchemas } from "./guardrail-validation";

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
    | "unreachable_agent"
    | "router_without_children"
    | "invalid_router"
    | "unknown_handoff_target"
    | "handoff_loop"
    | "invalid_output_schema"
    | "schema_too_large"
    | "invalid_plan_settings"
    | "invalid_reminder"
    | "invalid_guardrail"
    | "duplicate_guardrail";
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
  if (agent.subAgents.length > 0 && agent.kind !== "router") names.push("message_agent");
  if (agent.outputSchema || agent.kind === "router") names.push("return", "fail");
  if (agent.handoffs.length > 0) names.push("handoff");
  for (const server of agent.mcpServers) {
    for (const tool of server.allowTools ?? []) names.push(`${server.name}${MCP_TOOL_SEPARATOR}${tool}`);
  }
  return names;
}

/** Extra checks only the server can make (a real JSON Schema compiler; see lib/json-schema/validator.ts). */
export interface ServerChecks {
  /** Problems that make a JSON Schema unusable; empty when it compiles. */
  jsonSchemaProblems: (schema: unknown) => string[];
}

/** Validates structure (zod) then meaning (see checkAgentGraph); the server adds its JSON Schema compiler. */
export function validateAgentGraph(input: unknown, server?: ServerChecks): GraphValidation {
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
  if (server) {
    parsed.data.agents.forEach((agent, i) => {
      if (!agent.outputSchema || errors.some((e) => e.path === `agents[${i}].outputSchema.schema`)) return;
      for (const problem of server.jsonSchemaProblems(agent.outputSchema.schema)) {
        errors.push({ path: `agents[${i}].outputSchema.schema`, message: `not a valid JSON Schema: ${problem}`, code: "invalid_output_schema" });
      }
    });
    parsed.data.agents.forEach((agent, i) => {
      for (const { path, schema } of guardrailSchemas(agent, i)) {
        if (errors.some((e) => e.path === path)) continue;
        for (const problem of server.jsonSchemaProblems(schema)) errors.push({ path, message: `not a valid JSON Schema: ${problem}`, code: "invalid_guardrail" });
      }
    });
  }
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

  const entry = graph.agents.findIndex((a) => a.name === graph.entryAgent);
  if (entry >= 0 && graph.agents[entry]?.model === INHERIT_MODEL) {
    errors.push({ path: `agents[${entry}].model`, message: `the entry agent "${graph.entryAgent}" has no parent to inherit a model from: choose a model`, code: "invalid" });
  }

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
        errors.push({ path: `agents[${i}].tools[${k}]`, message: `"${tool}" is reserved: the engine provides it (message_agent, return, fail, handoff)`, code: "reserved_tool_name" });
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
      const timing = approvalRuleTimingIssues(rule);
      for (const e of timing.errors) errors.push({ path: `agents[${i}].approvalRules[${r}].${e.field}`, message: e.message, code: "invalid_reminder" });
      for (const w of timing.warnings) warnings.push({ path: `agents[${i}].approvalRules[${r}].${w.field}`, message: w.message, code: "invalid_reminder" });
    });
    const guardrailIssues = checkGuardrails(agent, i, names);
    errors.push(...guardrailIssues.errors);
    warnings.push(...guardrailIssues.warnings);
  });

  graph.agents.forEach((agent, i) => checkOrchestration(graph, agent, i, firstIndex, errors));
  checkPlanSettings(graph, firstIndex, errors);
  checkRunApprovalReminders(graph, warnings);
  for (const loop of findHandoffLoops(graph)) {
    const index = firstIndex.get(loop[0] ?? "") ?? 0;
    warnings.push({
      path: `agents[${index}].handoffs`,
      message: `handoffs can go round in a loop (${loop.join(" → ")}); a run stops it at its maxHandoffs (${graph.limits.maxHandoffs}) — consider a sub-agent instead`,
      code: "handoff_loop",
      agents: [...new Set(loop)],
    });
  }

  for (const cycle of findCycles(graph)) {
    const start = cycle[0] ?? "";
    const index = firstIndex.get(start) ?? 0;
    const next = cycle[1] ?? "";
    const linkIndex = graph.agents[index]?.subAgents.indexOf(next) ?? 0;
    errors.push({ path: `agents[${index}].subAgents[${linkIndex}]`, message: `sub-agent cycle: ${cycle.join(" → ")}`, code: "cycle", agents: [...new Set(cycle)] });
  }

  // In plan-and-execute every agent is a card the planner may use.
  for (const index of graph.mode === "plan-and-execute" ? [] : unreachableAgents(graph, firstIndex)) {
    warnings.push({
      path: `agents[${index}]`,
      message: `"${graph.agents[index]?.name ?? ""}" is not reachable from the entry agent "${graph.entryAgent}" through sub-agent or handoff links, so no run will use it`,
      code: "unreachable_agent",
    });
  }

  return { errors, warnings };
}

/** Routers, handoffs and output schemas: what each needs to run. */
function checkOrchestration(graph: AgentGraph, agent: AgentGraph["agents"][number], i: number, firstIndex: ReadonlyMap<string, number>, errors: GraphIssue[]): void {
  if (agent.kind === "router") {
    if (agent.subAgents.length === 0) {
      errors.push({ path: `agents[${i}].subAgents`, message: `router "${agent.name}" has no children to route to: connect at least one sub-agent`, code: "router_without_children" });
    }
    const fallback = agent.router?.defaultAgent;
    if (fallback !== undefined && !agent.subAgents.includes(fallback)) {
      errors.push({ path: `agents[${i}].router.defaultAgent`, message: `the default agent "${fallback}" is not one of the router's children (${agent.subAgents.join(", ") || "none"})`, code: "invalid_router" });
    }
    if (agent.outputSchema) {
      errors.push({ path: `agents[${i}].outputSchema`, message: "a router answers with its routing decision: give the output schema to its children instead", code: "invalid_router" });
    }
    if (agent.handoffs.length > 0) {
      errors.push({ path: `agents[${i}].handoffs`, message: "a router passes tasks to its children: remove its handoffs", code: "invalid_router" });
    }
  } else if (agent.router) {
    errors.push({ path: `agents[${i}].router`, message: `router settings need kind "router"`, code: "invalid_router" });
  }
  const seen = new Map<string, number>();
  agent.handoffs.forEach((target, k) => {
    const path = `agents[${i}].handoffs[${k}]`;
    const earlier = seen.get(target);
    if (earlier !== undefined) errors.push({ path, message: `handoff to "${target}" is listed twice (also agents[${i}].handoffs[${earlier}])`, code: "unknown_handoff_target" });
    else if (target === agent.name) errors.push({ path, message: `"${agent.name}" cannot hand off to itself`, code: "unknown_handoff_target" });
    else if (!firstIndex.has(target)) errors.push({ path, message: `handoff to a missing agent "${target}"`, code: "unknown_handoff_target" });
    seen.set(target, k);
  });
  if (agent.outputSchema) {
    const path = `agents[${i}].outputSchema.schema`;
    const size = JSON.stringify(agent.outputSchema.schema).length;
    if (size > MAX_OUTPUT_SCHEMA_BYTES) {
      errors.push({ path, message: `the schema is ${Math.ceil(size / 1024)} KB; at most ${MAX_OUTPUT_SCHEMA_BYTES / 1024} KB`, code: "schema_too_large" });
    } else if (agent.outputSchema.schema.type !== "object") {
      errors.push({ path, message: `an output schema describes an object: set "type": "object" at its root`, code: "invalid_output_schema" });
    }
  }
}

/** Plan-and-execute: the entry agent plans (its answer is the plan), the others are its cards. */
function checkPlanSettings(graph: AgentGraph, firstIndex: ReadonlyMap<string, number>, errors: GraphIssue[]): void {
  if (graph.mode !== "plan-and-execute") {
    if (graph.plan) errors.push({ path: "plan", message: 'plan settings need mode "plan-and-execute"', code: "invalid_plan_settings" });
    return;
  }
  const entry = firstIndex.get(graph.entryAgent);
  const planner = entry === undefined ? undefined : graph.agents[entry];
  if (planner && entry !== undefined) {
    if (planner.kind === "router") errors.push({ path: `agents[${entry}].kind`, message: "the planner (the entry agent) plans; it cannot also route", code: "invalid_plan_settings" });
    if (planner.outputSchema) errors.push({ path: `agents[${entry}].outputSchema`, message: "the planner's answer is the plan: give output schemas to the agents it plans for", code: "invalid_plan_settings" });
    if (planner.handoffs.length > 0) errors.push({ path: `agents[${entry}].handoffs`, message: "the planner cannot hand off: its answer is the plan", code: "invalid_plan_settings" });
  }
  if (graph.agents.length < 2) errors.push({ path: "agents", message: "a plan needs agents to plan for: add at least one agent beside the planner", code: "invalid_plan_settings" });
  const synthesis = graph.plan?.synthesisAgent;
  if (synthesis !== undefined && (!firstIndex.has(synthesis) || synthesis === graph.entryAgent)) {
    errors.push({ path: "plan.synthesisAgent", message: synthesis === graph.entryAgent ? "the planner cannot also write the synthesis: choose another agent" : `no agent is named "${synthesis}"`, code: "invalid_plan_settings" });
  }
}

/**
 * A budget ask's and a plan approval's reminders (their cross-field errors are
 * the schema's): set where no such request is ever made, or due only after the
 * request expires, they are never sent.
 */
function checkRunApprovalReminders(graph: AgentGraph, warnings: GraphIssue[]): void {
  const { budgetReminders, onBudget, runTimeoutSeconds } = graph.limits;
  if (budgetReminders && onBudget !== "ask") {
    warnings.push({ path: "limits.budgetReminders", message: 'never sent: at the token budget the run fails and asks nobody (set onBudget to "ask")', code: "invalid_reminder" });
  } else if (budgetReminders) {
    for (const w of runApprovalTimingWarnings(budgetReminders, runTimeoutSeconds)) warnings.push({ path: `limits.budgetReminders.${w.field}`, message: w.message, code: "invalid_reminder" });
  }
  const planReminders = graph.mode === "plan-and-execute" ? graph.plan?.approvalReminders : undefined;
  if (planReminders && !graph.plan?.approval) {
    warnings.push({ path: "plan.approvalReminders", message: "never sent: the plan does not wait for approval (turn plan approval on)", code: "invalid_reminder" });
  } else if (planReminders) {
    for (const w of runApprovalTimingWarnings(planReminders, runTimeoutSeconds)) warnings.push({ path: `plan.approvalReminders.${w.field}`, message: w.message, code: "invalid_reminder" });
  }
}

/** Loops through handoff links (A → B → A), one per link that closes one. */
function findHandoffLoops(graph: AgentGraph): string[][] {
  const byName = new Map(graph.agents.map((a) => [a.name, a]));
  const state = new Map<string, "visiting" | "done">();
  const loops: string[][] = [];
  const stack: string[] = [];
  const visit = (name: string) => {
    state.set(name, "visiting");
    stack.push(name);
    for (const next of new Set(byName.get(name)?.handoffs ?? [])) {
      if (!byName.has(next) || next === name) continue;
      if (state.get(next) === "visiting") loops.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(name, "done");
  };
  for (const agent of graph.agents) if (!state.has(agent.name)) visit(agent.name);
  return loops;
}

/** Indexes of agents no chain of sub-agent links leads to from the entry agent (none when the entry agent is unknown). */
function unreachableAgents(graph: AgentGraph, firstIndex: ReadonlyMap<string, number>): number[] {
  const entry = firstIndex.get(graph.entryAgent);
  if (entry === undefined) return [];
  const reached = new Set<number>([entry]);
  const toVisit = [entry];
  for (let next = toVisit.pop(); next !== undefined; next = toVisit.pop()) {
    const agent = graph.agents[next];
    for (const child of [...(agent?.subAgents ?? []), ...(agent?.handoffs ?? [])]) {
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
