// The engine's own tools (DD-9: real tools the model sees beside the user's):
// `return` ends a turn with typed data, `fail` gives up with a reason, and
// `handoff` passes the conversation to another agent for good. A router's
// routing decision is its `return` with the decision's schema. Pure and
// browser-safe (no zod): workflow code, the demo model and the designer use it.
import type { AgentConfig, AgentGraph } from "../agents/schemas";
import { planSchema } from "./plan";

export const RETURN_TOOL = "return";
export const FAIL_TOOL = "fail";
export const HANDOFF_TOOL = "handoff";
export const MESSAGE_AGENT_TOOL = "message_agent";


/** Attempts to repair an answer that failed its schema, after the first answer (seed §3). */
export const MAX_REPAIRS = 2;

/** Opens the message that asks the model to repair its answer (the demo model recognises it). */
export const REPAIR_PROMPT_PREFIX = "Your output failed validation:";

/** Opens the message that asks the agent to rewrite an answer a `rewrite` output guardrail refused (the demo model recognises it). */
export const GUARDRAIL_REWRITE_PREFIX = "Your answer was refused by a guardrail:";

/** What the agent is told when an output guardrail with the action `rewrite` refuses its answer (the reason never quotes what was found). */
export function guardrailRewritePrompt(guardrail: string, reason: string): string {
  return `${GUARDRAIL_REWRITE_PREFIX} ${guardrail} (${reason})\nRewrite your final answer so that it passes, and give only the rewritten answer.`;
}

/** Opens the message a receiving agent gets at a handoff (the demo model recognises it). */
export const HANDOFF_PROMPT_PREFIX = "You are taking over this conversation from";

/** Opens the message a router gets when the child it chose failed. */
export const REROUTE_PROMPT_PREFIX = "The agent you chose could not finish:";

export interface SystemTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A routing decision as the router returns it (seed §1). */
export interface RoutingDecision {
  target: string;
  confidence: number;
  reason: string;
  fallback?: string;
}

/** The schema of a router's decision: a target and an optional fallback among its children. */
export function routingDecisionSchema(children: readonly string[]): Record<string, unknown> {
  return {
    type: "object",
    properties: {
      target: { type: "string", enum: [...children], description: "The agent best suited to the task" },
      confidence: { type: "number", minimum: 0, maximum: 1, description: "How sure you are that the target can handle it (0–1)" },
      reason: { type: "string", description: "One line: why this agent" },
      fallback: { type: "string", enum: [...children], description: "Who should take it if the target is not a confident match" },
    },
    required: ["target", "confidence", "reason"],
    additionalProperties: false,
  };
}

/**
 * The agents this one may hand off to. Runs started before handoffs existed
 * carry graphs without the field (their input was parsed by the older schema,
 * which had no default for it): workflow code reads it through here.
 */
export function handoffsOf(agent: AgentConfig): readonly string[] {
  return (agent as Partial<AgentConfig>).handoffs ?? [];
}

/** Whether `agent` is the planner of a plan-and-execute graph (its entry agent). */
export function isPlanner(agent: AgentConfig, graph: AgentGraph): boolean {
  return graph.mode === "plan-and-execute" && agent.name === graph.entryAgent;
}

/** The agents a planner may put in a plan: every agent of the graph but the planner. */
export function planCards(graph: AgentGraph): string[] {
  return graph.agents.filter((a) => a.name !== graph.entryAgent).map((a) => a.name);
}

/** The schema an agent's final answer must match (a router's is its decision, a planner's its plan), or null for free text. */
export function answerSchemaOf(agent: AgentConfig, graph?: AgentGraph): { schema: Record<string, unknown>; strict: boolean } | null {
  if (graph && isPlanner(agent, graph)) return { schema: planSchema(planCards(graph)), strict: true };
  if (agent.kind === "router") return { schema: routingDecisionSchema(agent.subAgents), strict: true };
  return agent.outputSchema ? { schema: agent.outputSchema.schema, strict: agent.outputSchema.strict } : null;
}

function describeAgents(graph: AgentGraph, names: readonly string[]): string {
  return names.map((name) => `- ${name}: ${graph.agents.find((a) => a.name === name)?.description || "(no description)"}`).join("\n");
}

/** The system tools an agent holds: `return`/`fail` with an answer schema, `handoff` with handoff targets. */
export function systemToolsFor(agent: AgentConfig, graph: AgentGraph): SystemTool[] {
  const tools: SystemTool[] = [];
  const answer = answerSchemaOf(agent, graph);
  if (answer) {
    tools.push({
      name: RETURN_TOOL,
      description: isPlanner(agent, graph)
        ? `Return the plan: nodes of work for these agents, each with the ids of the nodes whose results it needs (independent nodes run in parallel). Agents:\n${describeAgents(graph, planCards(graph))}`
        : agent.kind === "router"
          ? `Route the task: name the agent that should answer it, how confident you are, and why. Agents:\n${describeAgents(graph, agent.subAgents)}`
          : "Finish the task: call this once with your answer as data matching the parameters' schema.",
      parameters: answer.schema,
    });
    tools.push({
      name: FAIL_TOOL,
      description: "Give up on the task when it cannot be done; say why. The run ends as failed.",
      parameters: { type: "object", properties: { reason: { type: "string" } }, required: ["reason"], additionalProperties: false },
    });
  }
  const handoffs = handoffsOf(agent);
  if (handoffs.length > 0) {
    tools.push({
      name: HANDOFF_TOOL,
      description: `Hand the conversation to another agent for good; its answer becomes the answer. Agents:\n${describeAgents(graph, handoffs)}`,
      parameters: {
        type: "object",
        properties: { agent: { type: "string", enum: [...handoffs] }, reason: { type: "string" } },
        required: ["agent", "reason"],
        additionalProperties: false,
      },
    });
  }
  return tools;
}

/** What a router's system prompt gains: its children and how to answer. */
export function routerInstructions(agent: AgentConfig, graph: AgentGraph): string {
  return `\n\nYou route each task to one of these agents:\n${describeAgents(graph, agent.subAgents)}\nCall ${RETURN_TOOL} with the target, your confidence (0–1), a one-line reason and, when unsure, a fallback.`;
}

/** What a planner's system prompt gains: the agents it may plan for (its cards) and how to answer. */
export function plannerInstructions(graph: AgentGraph): string {
  const cards = planCards(graph).map((name) => {
    const card = graph.agents.find((a) => a.name === name);
    const tools = card?.tools.length ? `; tools: ${card.tools.join(", ")}` : "";
    const typed = card?.outputSchema ? "; answers typed data" : "";
    return `- ${name}: ${card?.description || "(no description)"}${tools}${typed}`;
  });
  return `\n\nYou plan the work for these agents:\n${cards.join("\n")}\nCall ${RETURN_TOOL} with the plan: nodes {id, agent, objective, dependsOn}. Nodes without a dependency between them run in parallel.`;
}

/** The repair prompt: the validation errors, the raw output and the schema (seed §3). */
export function repairPrompt(errors: readonly string[], rawOutput: string, schema: Record<string, unknown>): string {
  return `${REPAIR_PROMPT_PREFIX}\n${errors.map((e) => `- ${e}`).join("\n")}\nOriginal output: ${rawOutput}\nPlease fix the output to match the schema (call ${RETURN_TOOL} with it): ${JSON.stringify(schema)}`;
}

/** Marks the task inside a handoff message (so the receiving agent, and the demo model, find it). */
const HANDOFF_TASK_MARK = "\nThe task as the user put it:\n";

/** The message a receiving agent starts from: who handed off and why, the context, and the task. */
export function handoffPrompt(parts: { from: string; reason: string; context: string; task: string }): string {
  return `${HANDOFF_PROMPT_PREFIX} ${parts.from} (reason: ${parts.reason}).\n${parts.context}${HANDOFF_TASK_MARK}${parts.task}`;
}

/** The task inside a handoff message, or null when `text` is not one. */
export function taskOfHandoffPrompt(text: string): string | null {
  if (!text.startsWith(HANDOFF_PROMPT_PREFIX)) return null;
  const at = text.lastIndexOf(HANDOFF_TASK_MARK);
  return at < 0 ? null : text.slice(at + HANDOFF_TASK_MARK.length);
}

/** The message a router gets when its chosen agent failed: who, why, and who is left. */
export function reroutePrompt(failed: string, reason: string, remaining: readonly string[]): string {
  return `${REROUTE_PROMPT_PREFIX} ${failed} failed (${reason}). Route the task again to one of: ${remaining.join(", ")}.`;
}
