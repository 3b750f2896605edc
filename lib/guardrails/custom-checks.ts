// Custom guardrail checks an agent may name (check.type "custom"), never user
// code: built-in functions the worker registers (worker/activities/guardrail-custom.ts),
// and tools of an admin-registered MCP server that the admin offered as checks,
// named "<server>__<tool>" as models see MCP tools. The designer offers these
// names and the validator refuses others; the save checks the registry (a tool
// the admin did not offer is refused), and a name the worker cannot resolve
// trips at run time (fail closed).
import { MCP_TOOL_SEPARATOR } from "../tools/catalog";

export interface CustomCheckInfo {
  name: string;
  /** One sentence the designer shows beside the name. */
  description: string;
}

export const CUSTOM_CHECKS: readonly CustomCheckInfo[] = [
  { name: "prompt_injection", description: "Trips on phrases that try to override the agent's instructions (\"ignore previous instructions\", \"reveal your system prompt\")." },
  { name: "control_characters", description: "Trips on control characters other than tabs and line breaks (hidden instructions, terminal escapes)." },
];

export const CUSTOM_CHECK_NAMES: readonly string[] = CUSTOM_CHECKS.map((check) => check.name);

export function isRegisteredCustomCheck(name: string): boolean {
  return CUSTOM_CHECK_NAMES.includes(name);
}

/** Between an MCP check's server and tool, as in the tool names models see. */
export const MCP_CHECK_SEPARATOR = MCP_TOOL_SEPARATOR;
/** A registered server's name (lib/agents/schemas' mcpServerNameSchema; a unit test holds the two equal) and an MCP tool's. */
export const MCP_SERVER_NAME = /^[a-z0-9_]{1,32}$/;
const MCP_TOOL_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** The server and tool an MCP check names ("kb__screen_text"), or null for a built-in name or a malformed one. */
export function mcpCheckOf(name: string): { server: string; tool: string } | null {
  const at = name.indexOf(MCP_CHECK_SEPARATOR);
  if (at <= 0) return null;
  const server = name.slice(0, at);
  const tool = name.slice(at + MCP_CHECK_SEPARATOR.length);
  return MCP_SERVER_NAME.test(server) && MCP_TOOL_NAME.test(tool) ? { server, tool } : null;
}

/** The name of the check an MCP server's tool is offered as. */
export const mcpCheckName = (server: string, tool: string): string => `${server}${MCP_CHECK_SEPARATOR}${tool}`;

/**
 * Why `name` can never be a custom check (the browser's half of the rule), or null: a built-in name, or one
 * shaped "<server>__<tool>" (whether the admin offers that tool as a check is the registry's half, checked on save).
 */
export function customCheckNameProblem(name: string): string | null {
  if (isRegisteredCustomCheck(name) || mcpCheckOf(name)) return null;
  return `no custom check is named "${name}": use a built-in check (${CUSTOM_CHECK_NAMES.join(", ")}) or <server>__<tool> for a tool an admin offers as a guardrail check`;
}
