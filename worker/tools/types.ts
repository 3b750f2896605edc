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
  sideEffect: boolean;
  execute(args: z.infer<S>, context: ToolContext): Promise<unknown>;
}

/** A tool's failure that the model should see (never retried). */
export class ToolUserError extends Error {
  override name = "ToolUserError";
}

export type ToolOutcome =
  | { ok: true; content: string }
  | { ok: false; content: string; errorKind: "unknown_tool" | "invalid_arguments" | "execution" | "mcp" | "rejected" };
