// The catalogue of built-in tools an agent may list: id, what the designer
// shows, whether it has a side effect, and its arguments. Browser-safe: the
// designer, the validator, the approval gate and the inbox read it;
// worker/tools/builtins.ts implements each tool against these argument schemas
// (a unit test keeps the two lists in step).
import { z } from "zod";

export interface BuiltinToolInfo {
  id: string;
  description: string;
  /**
   * Side-effecting tools need an approval unless the workspace policy exempts them
   * (lib/policy/gate.ts), run as regular activities and record each call's key so
   * a retry does not repeat the effect (worker/tools/ledger.ts); the others run as
   * local activities (worker/workflows/agent-loop.ts).
   */
  sideEffect: boolean;
}

export const BUILTIN_TOOLS = [
  { id: "current_time", description: "The current date and time, optionally in a given IANA time zone", sideEffect: false },
  { id: "calculator", description: "Evaluates an arithmetic expression (+ - * / ^ % and parentheses)", sideEffect: false },
  { id: "http_get", description: "Fetches a URL whose host is on the allow-list (ZAP_HTTP_ALLOWLIST)", sideEffect: false },
  { id: "lookup_order", description: "Looks up a demo customer order by id", sideEffect: false },
  { id: "search_notes", description: "Searches the demo research notes and returns matching snippets", sideEffect: false },
  { id: "ledger_balance", description: "Reads the balance of a demo ledger account", sideEffect: false },
  { id: "ledger_transfer", description: "Moves an amount between two demo ledger accounts (recorded in the database)", sideEffect: true },
] as const satisfies readonly BuiltinToolInfo[];

export type BuiltinToolId = (typeof BUILTIN_TOOLS)[number]["id"];

export const BUILTIN_TOOL_IDS: readonly string[] = BUILTIN_TOOLS.map((t) => t.id);

const amount = z.number().positive("amount must be positive").max(1_000_000, "amount is over the 1,000,000 limit");

/** Each built-in tool's arguments: the worker checks a call against them, the model and the approver see them as JSON schema. */
export const BUILTIN_TOOL_INPUTS = {
  current_time: z.object({ time_zone: z.string().max(64).optional() }),
  calculator: z.object({ expression: z.string().min(1).max(500) }),
  http_get: z.object({ url: z.url({ protocol: /^https?$/ }) }),
  lookup_order: z.object({ order_id: z.string().regex(/^[A-Z]-\d{4}$/, "order ids look like A-1001") }),
  search_notes: z.object({ query: z.string().min(1).max(200), limit: z.number().int().min(1).max(10).optional() }),
  ledger_balance: z.object({ account: z.string().min(1) }),
  ledger_transfer: z.object({
    from_account: z.string().min(1),
    to_account: z.string().min(1),
    amount,
    memo: z.string().max(200).optional(),
    /** Demo only: wait this long after recording the transfer, so a crash can be simulated mid-call. */
    hold_ms: z.number().int().min(0).max(30_000).optional(),
  }),
} as const satisfies Record<BuiltinToolId, z.ZodType>;

/** The JSON schema a model sees for a zod schema (function-calling parameters). */
export function toFunctionParameters(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** A built-in tool's arguments as JSON schema, or null when `id` is not a built-in tool. */
export function builtinToolParameters(id: string): Record<string, unknown> | null {
  return Object.hasOwn(BUILTIN_TOOL_INPUTS, id) ? toFunctionParameters(BUILTIN_TOOL_INPUTS[id as BuiltinToolId]) : null;
}

/** Tool names the engine itself provides; agents may not define tools with these names. */
export const RESERVED_TOOL_NAMES = ["message_agent"] as const;

/** Separator between an MCP server's name and its tool's name in the name the model sees. */
export const MCP_TOOL_SEPARATOR = "__";
