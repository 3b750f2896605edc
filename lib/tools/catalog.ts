// The catalogue of built-in tools an agent may list: id, what the designer
// shows, whether it has a side effect. Browser-safe and free of zod on purpose:
// workflow code imports it (the approval gate, local vs regular activities),
// and every module a workflow imports is instantiated once per cached workflow
// — zod there cost the worker ~1.5 MB per run. The tools' argument schemas are
// in ./arguments.ts and their result schemas in ./output-schemas.ts;
// worker/tools/builtins.ts implements each tool against them (a unit test keeps
// the lists in step).

export interface BuiltinToolInfo {
  id: string;
  description: string;
  /**
   * Side-effecting tools need an approval unless the workspace policy exempts them
   * (lib/policy/gate.ts), run as regular activities and record each call's key so
   * a retry does not repeat the effect (worker/tools/demo-bank.ts); the others run as
   * local activities, or inside the model call when no approval gates them (worker/workflows/tool-calls.ts).
   */
  sideEffect: boolean;
}

export const BUILTIN_TOOLS = [
  { id: "current_time", description: "The current date and time, optionally in a given IANA time zone", sideEffect: false },
  { id: "calculator", description: "Evaluates an arithmetic expression (+ - * / ^ % and parentheses)", sideEffect: false },
  { id: "http_get", description: "Fetches a URL whose host is on the allow-list (ZAP_HTTP_ALLOWLIST)", sideEffect: false },
  { id: "lookup_order", description: "Looks up a demo customer order by id", sideEffect: false },
  { id: "lookup_invoice", description: "Looks up a demo invoice in the ERP by id; its result is typed (status approved, rejected or pending)", sideEffect: false },
  { id: "search_notes", description: "Searches the demo research notes and returns matching snippets", sideEffect: false },
  { id: "ledger_balance", description: "Reads the balance of a demo ledger account", sideEffect: false },
  { id: "ledger_transfer", description: "Moves an amount between two demo ledger accounts (recorded in the database)", sideEffect: true },
] as const satisfies readonly BuiltinToolInfo[];

export type BuiltinToolId = (typeof BUILTIN_TOOLS)[number]["id"];

export const BUILTIN_TOOL_IDS: readonly string[] = BUILTIN_TOOLS.map((t) => t.id);

/**
 * Tool names the engine itself provides (lib/contract/system-tools.ts): no
 * built-in or MCP tool may take them, and a graph that tries is refused when
 * it is saved (DD-2).
 */
export const RESERVED_TOOL_NAMES = ["message_agent", "return", "fail", "handoff"] as const;

/** Separator between an MCP server's name and its tool's name in the name the model sees. */
export const MCP_TOOL_SEPARATOR = "__";
