// The agent graph: the unit the designer saves and a run executes. Pure and
// browser-safe; the worker validates the same way before it runs anything.
import { z } from "zod";
import { ROLES } from "../access/roles";

export const AGENT_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const agentNameSchema = z
  .string()
  .regex(AGENT_NAME_PATTERN, "use 1–64 letters, digits, _ or - (no spaces or slashes)");

export const MODEL_ID_PATTERN =
  /^(demo\/[A-Za-z0-9._-]+|openai\/[A-Za-z0-9._:-]+|anthropic\/[A-Za-z0-9._:-]+|openai-compatible\/[a-z0-9-]+\/[A-Za-z0-9._:/-]+)$/;

export const modelIdSchema = z
  .string()
  .regex(MODEL_ID_PATTERN, "use demo/<name>, openai/<model>, anthropic/<model> or openai-compatible/<provider>/<model>");

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
});

export const agentSchema = z.object({
  name: agentNameSchema,
  /** Shown to parent agents in the message_agent tool so they know when to ask this agent. */
  description: z.string().max(1000).default(""),
  /** Plain text or a template with {{context.some.path}} placeholders. */
  systemPrompt: z.string().max(20_000).default("You are a helpful assistant."),
  model: modelIdSchema.default("demo/assistant"),
  temperature: z.number().min(0).max(2).default(0.2),
  maxOutputTokens: z.number().int().min(1).max(200_000).default(1024),
  maxIterations: z.number().int().min(1).max(500).default(20),
  tools: z.array(z.string().min(1)).default([]),
  mcpServers: z.array(mcpServerSchema).default([]),
  subAgents: z.array(z.string().min(1)).default([]),
  approvalRules: z.array(approvalRuleSchema).default([]),
});

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

export const agentGraphSchema = z.object({
  entryAgent: agentNameSchema,
  agents: z.array(agentSchema).min(1, "add at least one agent").max(MAX_AGENTS),
  limits: runLimitsSchema.default(runLimitsSchema.parse({})),
  layout: graphLayoutSchema.optional(),
});

export type McpServerConfig = z.infer<typeof mcpServerSchema>;
export type ApprovalRule = z.infer<typeof approvalRuleSchema>;
export type AgentConfig = z.infer<typeof agentSchema>;
export type RunLimits = z.infer<typeof runLimitsSchema>;
export type AgentGraph = z.infer<typeof agentGraphSchema>;
/** What a user writes (defaults not yet applied). */
export type AgentGraphInput = z.input<typeof agentGraphSchema>;
