// Which stdio commands may run at all: an operator decision made in the
// environment, checked when an admin registers a server and again by the
// worker right before it spawns one (the registry row could be old).
import { commandLine, DEMO_MCP_COMMAND_LINE } from "./schemas";

/** Whether `command args…` is an allowed stdio command line (ZAP_MCP_STDIO_ALLOWLIST, else only the bundled demo server). */
export function stdioCommandAllowed(allowlist: readonly string[] | null, command: string, args: readonly string[]): boolean {
  const line = commandLine(command, args);
  return (allowlist ?? [DEMO_MCP_COMMAND_LINE]).includes(line);
}

export const STDIO_NOT_ALLOWED_MESSAGE =
  "this command line is not on the operator's stdio allowlist (ZAP_MCP_STDIO_ALLOWLIST; by default only the bundled demo server)";
