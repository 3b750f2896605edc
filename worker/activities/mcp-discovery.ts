// "Discover tools" runs here, in the worker, never in the web process: the
// worker is the only process that starts MCP servers, and only registered ones.
import type { McpDiscoverResult } from "../../lib/mcp/schemas";
import { discoverRegisteredTools, McpError, type McpDeps } from "../tools/mcp";

export function createMcpDiscoveryActivities(deps: { mcp: McpDeps | null }) {
  return {
    /** Lists every tool of a registered server, or one sentence safe to show (details go to the worker log). */
    async discoverMcpTools(input: { name: string }): Promise<McpDiscoverResult> {
      if (!deps.mcp) return { ok: false, reason: "This worker cannot start MCP servers." };
      try {
        return { ok: true, tools: await discoverRegisteredTools(deps.mcp, input.name) };
      } catch (error) {
        console.error(`worker: discover tools of MCP server "${input.name}" failed:`, error);
        return { ok: false, reason: error instanceof McpError ? error.publicMessage : `MCP server "${input.name}" could not be reached.` };
      }
    },
  };
}
