// The built-in tools an agent may list, by id. Browser-safe metadata only:
// the designer and the validator read it; worker/tools implements each one.

export interface BuiltinToolInfo {
  id: string;
  description: string;
  /** Side-effecting tools run at most once per call (see worker/tools/idempotency.ts). */
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

/** Tool names the engine itself provides; agents may not define tools with these names. */
export const RESERVED_TOOL_NAMES = ["message_agent"] as const;

/** Separator between an MCP server's name and its tool's name in the name the model sees. */
export const MCP_TOOL_SEPARATOR = "__";
