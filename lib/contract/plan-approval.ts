// Plan approvals (graph plan.approval, issue 17 §1): the planner's accepted
// plan waits in the approval inbox before any node runs. An approver approves
// it, edits it (nodes, dependencies, objectives) or rejects it with a reason
// the planner re-plans from. Part of the contract: pure, browser-safe and
// zod-free, so the workflow (its update validator), the server and the inbox
// check an edited plan alike.
import type { AgentGraph } from "../agents/schemas";
import type { ApprovalRequest } from "./types";
import { planProblems, planSchema, type Plan } from "./plan";
import { planCards } from "./system-tools";

/**
 * The tool name a plan approval carries, so the audit, webhooks and filters
 * name it like any approval. No real call has it: built-in and reserved names
 * are fixed, and MCP tools carry their server's prefix.
 */
export const PLAN_APPROVAL_TOOL = "plan";

/** Times a rejected plan is planned again before the run fails plan_invalid. */
export const PLAN_REJECTIONS_ALLOWED = 1;

/** The nodes' maximum when a graph's plan settings leave it out (the schema's default). */
const DEFAULT_MAX_NODES = 50;

/** What an edited plan is checked against: the graph's cards (every agent but the planner) and its size limit. */
export interface PlanLimits {
  agents: string[];
  maxNodes: number;
}

/** A plan approval as the workflow holds it: the approval, and the limits an edit must keep. */
export type PlanApprovalRequest = ApprovalRequest & { planLimits: PlanLimits };

/** The limits a plan of `graph` must keep. */
export function planLimitsFor(graph: AgentGraph): PlanLimits {
  return { agents: planCards(graph), maxNodes: graph.plan?.maxNodes ?? DEFAULT_MAX_NODES };
}

/** Whether an approval asks to run a plan rather than a tool call. */
export function isPlanApproval(approval: Pick<ApprovalRequest, "toolName" | "kind">): boolean {
  return approval.toolName === PLAN_APPROVAL_TOOL && approval.kind !== "budget";
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The limits a plan approval carries (null when missing or malformed, e.g. read from an older record). */
export function planLimitsOf(approval: object): PlanLimits | null {
  const limits: unknown = (approval as { planLimits?: unknown }).planLimits;
  if (!isRecord(limits) || !Array.isArray(limits.agents) || typeof limits.maxNodes !== "number") return null;
  const agents = limits.agents.filter((a): a is string => typeof a === "string");
  return { agents, maxNodes: limits.maxNodes };
}

/** What is wrong with the shape of a plan (the JSON Schema's checks, without a validator library), each with its path. */
export function planShapeProblems(value: unknown): string[] {
  if (!isRecord(value)) return ["plan: must be an object with nodes"];
  const problems = Object.keys(value)
    .filter((key) => key !== "nodes" && key !== "metadata")
    .map((key) => `plan.${key}: not a plan field (nodes, metadata)`);
  if (value.metadata !== undefined && !isRecord(value.metadata)) problems.push("plan.metadata: must be an object");
  if (!Array.isArray(value.nodes)) return [...problems, "plan.nodes: must be a list of nodes"];
  value.nodes.forEach((node: unknown, i) => {
    const at = `plan.nodes[${i}]`;
    if (!isRecord(node)) {
      problems.push(`${at}: must be an object {id, agent, objective, dependsOn}`);
      return;
    }
    for (const key of Object.keys(node)) if (!["id", "agent", "objective", "dependsOn"].includes(key)) problems.push(`${at}.${key}: not a node field (id, agent, objective, dependsOn)`);
    for (const key of ["id", "agent", "objective"] as const) if (typeof node[key] !== "string") problems.push(`${at}.${key}: must be text`);
    if (!Array.isArray(node.dependsOn) || node.dependsOn.some((dep) => typeof dep !== "string")) problems.push(`${at}.dependsOn: must be a list of node ids`);
  });
  return problems;
}

/**
 * Why an approver's edit of a plan approval is refused: it must be `{ plan }`,
 * a plan of the right shape that planProblems accepts for the graph's cards and
 * size (ids, dependencies, agents, cycles). Paths start at the edited arguments.
 */
export function planEditProblems(edited: Record<string, unknown>, limits: PlanLimits): string[] {
  const extra = Object.keys(edited)
    .filter((key) => key !== "plan")
    .map((key) => `${key}: only the plan can be edited on a plan approval`);
  if (edited.plan === undefined) return [...extra, "plan: required"];
  const shape = planShapeProblems(edited.plan);
  if (shape.length) return [...extra, ...shape];
  return [...extra, ...planProblems(edited.plan as Plan, limits.agents, limits.maxNodes).map((problem) => `plan.${problem}`)];
}

function asPlan(value: unknown): Plan | null {
  return planShapeProblems(value).length === 0 ? (value as Plan) : null;
}

/** The plan a plan approval proposes (null when its arguments hold none). */
export function proposedPlan(approval: Pick<ApprovalRequest, "arguments">): Plan | null {
  return asPlan(approval.arguments.plan);
}

/** The plan an approved plan approval runs: the approver's edit when there is one, else the plan proposed. */
export function approvedPlan(approval: Pick<ApprovalRequest, "arguments" | "decision">): Plan | null {
  const edited = approval.decision?.editedArguments;
  return (edited ? asPlan(edited.plan) : null) ?? proposedPlan(approval);
}

/** The JSON schema of a plan approval's editable arguments (what the inbox and API clients edit). */
export function planApprovalSchema(limits: PlanLimits): Record<string, unknown> {
  const plan = planSchema(limits.agents);
  const properties = plan.properties as Record<string, Record<string, unknown>>;
  return {
    type: "object",
    properties: { plan: { ...plan, properties: { ...properties, nodes: { ...properties.nodes, maxItems: limits.maxNodes } } } },
    required: ["plan"],
    additionalProperties: false,
  };
}

/** A plan request as a sentence, e.g. "trip-planner proposes a plan of 3 nodes". */
export function planRequestSentence(approval: Pick<ApprovalRequest, "agentName" | "arguments">): string {
  const count = proposedPlan(approval)?.nodes.length ?? 0;
  return `${approval.agentName} proposes a plan of ${count} node${count === 1 ? "" : "s"}`;
}

/** What the planner reads after an approver rejected its plan: the reason, and that it plans again. */
export function replanPrompt(reason: string, by: string): string {
  return `${by} rejected this plan: ${reason}\nPlan again, taking the reason into account, and return the new plan.`;
}

