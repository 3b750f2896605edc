// The admin-owned MCP server registry: what an admin may register and what
// anyone may read back. Browser-safe. Secret values are write-only: inputs may
// carry them, views never do (only their names, shown as "set").
import { z } from "zod";
import { mcpServerNameSchema } from "../agents/schemas";

export { mcpServerNameSchema };

// The demo server's command and the reserved environment names live with the allowlist (lib/config).
import { DEMO_MCP_ARGV, RESERVED_ENV_NAMES } from "../config/mcp-allowlist";
export { DEMO_MCP_ARGV, RESERVED_ENV_NAMES };

/** The same, as one line for people to read (the allowlist compares lists, never this line). */
export const DEMO_MCP_COMMAND_LINE = DEMO_MCP_ARGV.join(" ");

const toolNameSchema = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, "use 1–64 letters, digits, _ . or -");

const stdioTransportSchema = z.strictObject({
  type: z.literal("stdio"),
  command: z.string().trim().min(1, "name the command").max(500),
  args: z.array(z.string().max(1000)).max(50).default([]),
});
const httpTransportSchema = z.strictObject({
  type: z.literal("http"),
  url: z.url({ protocol: /^https?$/, message: "use an http:// or https:// URL" }).max(2000),
});
export const mcpTransportSchema = z.discriminatedUnion("type", [stdioTransportSchema, httpTransportSchema]);
export type McpTransport = z.infer<typeof mcpTransportSchema>;

/** Names valid both as environment variables (stdio) and as HTTP header names. */
const secretNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]{0,127}$/, "use letters, digits, _ or - (starting with a letter or _)");
/** No line breaks: a header value must not start another header. */
const secretValueSchema = z.string().min(1).max(8192).regex(/^[^\r\n\0]*$/, "no line breaks");

/** Names the child process environment reserves: the worker sets them itself. */


/**
 * Secret values by name: environment variables for a stdio server, request
 * headers for an HTTP server. On update, a name left out keeps its stored
 * value and a name set to null removes it.
 */
export const mcpSecretsInputSchema = z.record(secretNameSchema, secretValueSchema.nullable()).refine((m) => Object.keys(m).length <= 50, "at most 50 secrets");

export const mcpServerCreateSchema = z.strictObject({
  name: mcpServerNameSchema,
  description: z.string().trim().max(500).default(""),
  transport: mcpTransportSchema,
  /** The tools builders may use; empty means every tool the server lists. */
  allowTools: z.array(toolNameSchema).max(200).default([]),
  /**
   * The tools offered as guardrail checks (a guardrail's custom check "<server>__<tool>"): each is called with
   * `{ text }` and answers `{ tripped, reason }`. Separate from allowTools: a builder may name these as checks
   * without the tool being offered to models, and no other tool of the server can be made a check.
   */
  guardrailTools: z.array(toolNameSchema).max(50).default([]),
  secrets: mcpSecretsInputSchema.default({}),
  /** Whether tool calls carry the run's context object to this server. */
  receivesRunContext: z.boolean().default(false),
});
export type McpServerCreateInput = z.input<typeof mcpServerCreateSchema>;

export const mcpServerUpdateSchema = z.strictObject({
  description: z.string().trim().max(500).optional(),
  transport: mcpTransportSchema.optional(),
  allowTools: z.array(toolNameSchema).max(200).optional(),
  guardrailTools: z.array(toolNameSchema).max(50).optional(),
  secrets: mcpSecretsInputSchema.optional(),
  receivesRunContext: z.boolean().optional(),
});
export type McpServerUpdate = z.infer<typeof mcpServerUpdateSchema>;

/** A registered server as anyone may see it: never a secret value. */
export interface McpServerView {
  name: string;
  description: string;
  transport: McpTransport;
  allowTools: string[];
  /** The tools offered as guardrail checks ("<server>__<tool>"). */
  guardrailTools: string[];
  /** Names of the stored secrets (env variables or headers); their values never leave the server. */
  secretNames: string[];
  receivesRunContext: boolean;
  updatedAt: string;
}

/** What discovery answers: the tools, or one sentence safe to show. */
export type McpDiscoverResult = { ok: true; tools: { name: string; description: string }[] } | { ok: false; reason: string };

export const discoverRegisteredInput = z.strictObject({ name: mcpServerNameSchema });
export const mcpServerRefInput = z.strictObject({ name: mcpServerNameSchema });
export const updateMcpServerInput = z.strictObject({ name: mcpServerNameSchema, patch: mcpServerUpdateSchema });
