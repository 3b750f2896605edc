import type { z } from "zod";
import type { Db } from "../../lib/db/prisma";

/** What a tool knows about the call it serves. */
export interface ToolContext {
  db: Db;
  runId: string;
  rootRunId: string;
  agentName: string;
  iteration: number;
  callId: string;
  /** Stable across retries of this call: `<run>:<iteration>:<call id>`. */
  idempotencyKey: string;
  /** The run's context object (also sent to MCP servers as metadata). */
  runContext: Record<string, unknown>;
  signal: AbortSignal;
  /** Keeps Temporal informed that a long call is alive. */
  heartbeat: () => void;
  httpAllowlist: string[];
  /** The worker's egress-guarded fetch (lib/net/egress.ts): public addresses or ZAP_EGRESS_ALLOW_HOSTS only. */
  egressFetch: typeof fetch;
}

export interface BuiltinTool<S extends z.ZodType = z.ZodType> {
  id: string;
  description: string;
  schema: S;
  /** The JSON Schema every result must match (lib/tools/output-schemas.ts); the executor checks it before the model sees the result. */
  outputSchema: Record<string, unknown>;
  sideEffect: boolean;
  execute(args: z.infer<S>, context: ToolContext): Promise<unknown>;
}

/** A tool's failure that the model should see (never retried). */
export class ToolUserError extends Error {
  override name = "ToolUserError";
}

/**
 * Whether a tool's result matched the output schema the tool declares: set
 * only when a result was checked (a built-in, or an MCP tool with an
 * `outputSchema`), absent for tools without a schema and for calls that
 * failed before a result existed. The trace shows it as `validation_ok`.
 */
export type ResultValidation = "ok" | "failed";

export type ToolErrorKind = "unknown_tool" | "invalid_arguments" | "execution" | "mcp" | "rejected" | "invalid_result";

/** `invalid_result`: the tool answered, but its result failed the tool's output schema (validation is then "failed"). */
export type ToolOutcome =
  | { ok: true; content: string; validation?: ResultValidation }
  | { ok: false; content: string; errorKind: ToolErrorKind; validation?: ResultValidation };
