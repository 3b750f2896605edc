// The agent graph: the unit the designer saves and a run executes. Pure and
// browser-safe; the worker validates the same way before it runs anything.
import { z } from "zod";
import { ROLES } from "../access/roles";
import { INHERIT_MODEL } from "./model-inheritance";
import { approvalTimingErrors } from "./approval-timing";
import { guardrailSchema } from "../guardrails/schemas";

export const AGENT_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const agentNameSchema = z
  .string()
  .regex(AGENT_NAME_PATTERN, "use 1–64 letters, digits, _ or - (no spaces or slashes)");

export const MODEL_ID_PATTERN =
  /^(demo\/[A-Za-z0-9._-]+|openai\/[A-Za-z0-9._:-]+|anthropic\/[A-Za-z0-9._:-]+|openai-compatible\/[a-z0-9-]+\/[A-Za-z0-9._:/-]+)$/;

export const modelIdSchema = z
  .string()
  .regex(MODEL_ID_PATTERN, "use demo/<name>, openai/<model>, anthropic/<model> or openai-compatible/<provider>/<model>");

/**
 * An agent's model may be `inherit` (DD-7): it then uses the model of the agent
 * that asked it — its parent for a sub-agent, its router for a routed task, the
 * sender for a handoff. The entry agent has nobody to inherit from.
 */
export const agentModelSchema = z
  .string()
  .refine((id) => id === INHERIT_MODEL || MODEL_ID_PATTERN.test(id), "use demo/<name>, openai/<model>, anthropic/<model>, openai-compatible/<provider>/<model>, or inherit");

export const mcpServerNameSchema = z.string().regex(/^[a-z0-9_]{1,32}$/, "use 1–32 lowercase letters, digits or _");

/**
 * The inline transport graphs used to carry. Still parsed so stored versions
 * keep loading, but the validator refuses it: servers live in the admin-owned
 * registry (lib/mcp) and graphs reference them by name.
 */
export const legacyMcpTransportSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("stdio"),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).optional(),
  }),
  z.object({ type: z.literal("http"), url: z.url({ protocol: /^https?$/ }) }),
]);

/** An agent's use of a registered MCP server, by name. */
export const mcpServerSchema = z.object({
  name: mcpServerNameSchema,
  /** When set, only these tools of the server are offered to the model (a narrowing of the registry's list). */
  allowTools: z.array(z.string().min(1)).optional(),
  /** Legacy only: an inline transport, refused by validateAgentGraph. */
  transport: legacyMcpTransportSchema.optional(),
});

/**
 * When a pending approval is reminded and escalated (worker/activities/approval-reminders.ts): a tool call's
 * approval rule, a graph's budget asks (limits.budgetReminders) and its plan approval (plan.approvalReminders).
 */
const approvalReminderShape = {
  /** Reminds the approval's channels (email, Slack) once after this many minutes without a decision. */
  remindAfterMinutes: z.number().int().min(1).max(30 * 24 * 60).optional(),
  /** Escalates once after this many minutes without a decision, to `escalateTo`. */
  escalateAfterMinutes: z.number().int().min(1).max(30 * 24 * 60).optional(),
  /** Who hears of the escalation: every active user with this role (by email), or a Slack channel (`slack:C0123ABCD`). */
  escalateTo: z.union([z.enum(ROLES), z.string().regex(/^slack:[#A-Za-z0-9_.-]{1,80}$/, "expected a role or slack:<channel id>")]).optional(),
};

/** Reminders and escalation of an approval the graph asks for without a rule (a budget ask, a plan). */
export const approvalRemindersSchema = z.object(approvalReminderShape).superRefine((value, ctx) => {
  // A rule's cross-field checks live in the validator; this setting has no rule, so its own schema checks them (in the same words).
  for (const issue of approvalTimingErrors(value)) ctx.addIssue({ code: "custom", path: [issue.field], message: issue.message });
});

export const approvalRuleSchema = z.object({
  pattern: z.string().regex(/^[A-Za-z0-9_*?.-]{1,100}$/, "use a tool name or glob (letters, digits, _ - . * ?)"),
  requiredRole: z.enum(ROLES).optional(),
  expiresInSeconds: z.number().int().min(1).max(30 * 24 * 3600).default(24 * 3600),
  /** What happens when nobody decides before the expiry. */
  onExpiry: z.enum(["reject", "approve"]).default("reject"),
  /** Distinct people who must approve before the call runs; a single rejection rejects. */
  requiredApprovals: z.number().int().min(1).max(5).default(1),
  /** False: who started the run or wrote its agent version may not approve its calls (they may still reject); the workspace policy must allow it too. */
  allowSelfApproval: z.boolean().default(false),
  ...approvalReminderShape,
});

/** An output schema may be this large (its JSON text, in UTF-16 code units as the browser counts them). */
export const MAX_OUTPUT_SCHEMA_BYTES = 64 * 1024;

/**
 * The JSON Schema an agent's final answer must match. Lenient by default: an
 * object may carry fields the schema does not name (models add them); strict
 * refuses them everywhere the schema does not say otherwise.
 */
export const outputSchemaSchema = z.object({
  schema: z.record(z.string(), z.unknown()),
  strict: z.boolean().default(false),
});

/** How a router picks and falls back (its children are its sub-agents). */
export const routerSettingsSchema = z.object({
  /** A decision less confident than this goes to the decision's fallback, else to the default agent. */
  threshold: z.number().min(0).max(1).default(0.7),
  /** Takes low-confidence tasks the decision names no fallback for; one of the router's children. */
  defaultAgent: agentNameSchema.optional(),
  /** Children the router may try for one task before the run fails with routing_exhausted. */
  maxAttempts: z.number().int().min(1).max(10).default(3),
});

/** Guardrails one agent may have. */
export const MAX_GUARDRAILS = 20;

/** What the receiving agent of a handoff sees of the conversation so far. */
export const HANDOFF_CONTEXTS = ["summary", "recent", "full"] as const;

export const agentSchema = z.object({
  name: agentNameSchema,
  /** Shown to parent agents in the message_agent tool so they know when to ask this agent. */
  description: z.string().max(1000).default(""),
  /** Plain text or a template with {{context.some.path}} placeholders. */
  systemPrompt: z.string().max(20_000).default("You are a helpful assistant."),
  model: agentModelSchema.default("demo/assistant"),
  temperature: z.number().min(0).max(2).default(0.2),
  maxOutputTokens: z.number().int().min(1).max(200_000).default(1024),
  maxIterations: z.number().int().min(1).max(500).default(20),
  tools: z.array(z.string().min(1)).default([]),
  mcpServers: z.array(mcpServerSchema).default([]),
  subAgents: z.array(z.string().min(1)).default([]),
  approvalRules: z.array(approvalRuleSchema).default([]),
  /** `router`: the agent answers with a routing decision over its sub-agents, and the chosen one answers the task. */
  kind: z.enum(["agent", "router"]).default("agent"),
  router: routerSettingsSchema.optional(),
  /** With a schema, the run's answer is JSON that matches it (the agent ends by calling `return`). */
  outputSchema: outputSchemaSchema.optional(),
  /** Agents this one may hand the conversation to for good (unlike sub-agents, which answer back). */
  handoffs: z.array(z.string().min(1)).default([]),
  /** What the receiving agent of this agent's handoffs sees: a summary, the last `handoffRecentMessages` messages, or the full transcript. */
  handoffContext: z.enum(HANDOFF_CONTEXTS).default("summary"),
  handoffRecentMessages: z.number().int().min(1).max(100).default(6),
  /** Checks on what comes in, what goes out and each tool call (lib/guardrails); absent in graphs saved before them. */
  guardrails: z.array(guardrailSchema).max(MAX_GUARDRAILS).default([]),
});

/** What a run does with a message that arrives while it works on a turn. */
export const FOLLOW_UP_POLICIES = ["enqueue", "reject", "interrupt"] as const;
export type FollowUpPolicy = (typeof FOLLOW_UP_POLICIES)[number];

export const runLimitsSchema = z.object({
  /** Total tokens (input + output, sub-agents included) a run may use. */
  tokenBudget: z.number().int().min(100).max(100_000_000).default(500_000),
  /** How deep sub-agent conversations may nest. */
  maxDepth: z.number().int().min(1).max(5).default(3),
  runTimeoutSeconds: z.number().int().min(1).max(30 * 24 * 3600).default(3600),
  /** A sub-agent conversation with no new message for this long ends. */
  subAgentIdleTimeoutSeconds: z.number().int().min(1).max(7 * 24 * 3600).default(300),
  /** After a final answer, the run waits this long for a follow-up before it closes. */
  followUpWindowSeconds: z.number().int().min(0).max(30 * 24 * 3600).default(3600),
  /** What a failed tool call does: `continue` shows the error to the model, `fail` ends the run with tool_error. */
  toolErrorPolicy: z.enum(["continue", "fail"]).default("continue"),
  /** Continue-as-new once the workflow history holds this many events. */
  continueAsNewAfterEvents: z.number().int().min(200).max(40_000).default(4000),
  /**
   * Iterations one task (the run's task, or a follow-up) may take across all the
   * run's agents, handoffs, repairs and re-routes included; each agent also has
   * its own maxIterations. The default equals the largest maxIterations, so a
   * single agent's own cap is never cut short by it.
   */
  maxSteps: z.number().int().min(1).max(10_000).default(500),
  /** Handoffs one run may make before it fails with handoff_depth_exceeded. */
  maxHandoffs: z.number().int().min(0).max(50).default(5),
  /** At the token budget: `fail` ends the run; `ask` waits in the approval inbox for an approver to grant more tokens or stop it. */
  onBudget: z.enum(["fail", "ask"]).default("fail"),
  /** With onBudget "ask": when the budget request is reminded and escalated, as an approval rule's fields do. */
  budgetReminders: approvalRemindersSchema.optional(),
  /**
   * A message that arrives while the run works on a turn (docs/engine.md "Messages that arrive mid-run"):
   * `enqueue` answers it after the turn, in order; `reject` refuses it (409); `interrupt` cancels the turn's
   * work and starts a new turn with both messages.
   */
  followUps: z.enum(FOLLOW_UP_POLICIES).default("enqueue"),
});

const coordinate = z.number().finite().min(-1_000_000).max(1_000_000);

/**
 * Where the designer drew each node, keyed by node id (`agent:<name>`,
 * `tool:<id>`, `mcp:<agent>:<server>`). The engine ignores it; it is saved so a
 * reload shows the graph as it was drawn.
 */
export const graphLayoutSchema = z.object({
  nodes: z.record(z.string().min(1).max(200), z.object({ x: coordinate, y: coordinate })),
});

/** Large enough for the designer's 500-node benchmark graphs; the engine has no smaller limit of its own. */
export const MAX_AGENTS = 1000;

/**
 * Plan-and-execute: the entry agent plans a DAG of tasks for the graph's
 * other agents (its cards), and the run executes it, independent nodes in parallel.
 */
export const planSettingsSchema = z.object({
  /** Nodes a plan may hold. */
  maxNodes: z.number().int().min(1).max(1000).default(50),
  /** Nodes that run at once. */
  concurrency: z.number().int().min(1).max(100).default(4),
  /** Writes the answer from the sink nodes' results; without one, the answer lists them. */
  synthesisAgent: agentNameSchema.optional(),
  /** The plan waits in the approval inbox before it runs. */
  approval: z.boolean().default(false),
  /** With approval: when the plan's approval is reminded and escalated, as an approval rule's fields do. */
  approvalReminders: approvalRemindersSchema.optional(),
  /** Extra attempts of a node that failed. */
  nodeRetries: z.number().int().min(0).max(5).default(1),
});

export const agentGraphSchema = z.object({
  entryAgent: agentNameSchema,
  /** Absent or `agents`: the entry agent's loop (sub-agents, routers, handoffs); `plan-and-execute`: the entry agent plans, the run executes the plan. */
  mode: z.enum(["agents", "plan-and-execute"]).optional(),
  plan: planSettingsSchema.optional(),
  agents: z.array(agentSchema).min(1, "add at least one agent").max(MAX_AGENTS),
  limits: runLimitsSchema.default(runLimitsSchema.parse({})),
  layout: graphLayoutSchema.optional(),
});

export type OutputSchemaConfig = z.infer<typeof outputSchemaSchema>;
export type RouterSettings = z.infer<typeof routerSettingsSchema>;
export type PlanSettings = z.infer<typeof planSettingsSchema>;
export type McpServerConfig = z.infer<typeof mcpServerSchema>;
export type ApprovalRule = z.infer<typeof approvalRuleSchema>;
/** A budget ask's or a plan approval's reminder and escalation (an approval rule has the same three fields). */
export type ApprovalReminders = z.infer<typeof approvalRemindersSchema>;
export type AgentConfig = z.infer<typeof agentSchema>;
export type RunLimits = z.infer<typeof runLimitsSchema>;
export type AgentGraph = z.infer<typeof agentGraphSchema>;
/** What a user writes (defaults not yet applied). */
export type AgentGraphInput = z.input<typeof agentGraphSchema>;
