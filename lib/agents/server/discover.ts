import "server-only";
// "Discover tools" in the designer: connect to an MCP server from the web
// server (never from the browser), list its tools, and close again. A failure
// is an answer, not an error: the builder needs to read why it did not connect.
import { createMcpConnections, McpError } from "../../../worker/tools/mcp";
import { MCP_TOOL_SEPARATOR } from "../builtin-tools";
import type { McpServerConfig } from "../schemas";
import type { DiscoverResult } from "../designer-schemas";

/** Lists every tool of the server (its allow-list is ignored here: the builder chooses from all of them). */
export async function discoverMcpTools(server: McpServerConfig): Promise<DiscoverResult> {
  const connections = createMcpConnections({ cwd: process.cwd() });
  try {
    const tools = await connections.listTools({ ...server, allowTools: undefined });
    const prefix = `${server.name}${MCP_TOOL_SEPARATOR}`;
    return { ok: true, tools: tools.map((t) => ({ name: t.name.startsWith(prefix) ? t.name.slice(prefix.length) : t.name, description: t.description })) };
  } catch (error) {
    // The builder configured this server and needs the cause (a missing command, a refused port); it holds no secrets of ours.
    const reason = error instanceof McpError ? error.message : error instanceof Error ? `${server.name}: ${error.message}` : "the server could not be reached";
    console.error(`discover tools of MCP server "${server.name}" failed:`, error);
    return { ok: false, reason: reason.slice(0, 500) };
  } finally {
    await connections.closeAll();
  }
}
