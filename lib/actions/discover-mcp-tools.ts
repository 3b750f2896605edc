"use server";
import { defineAction } from "../http/server/action";
import { discoverRegisteredInput } from "../mcp/schemas";
import { mcpServers } from "../mcp/server/web";

/** Lists a registered MCP server's tools through a worker, or says why it could not. */
export const discoverMcpToolsAction = defineAction({
  name: "discover-mcp-tools",
  permission: "agents:edit",
  input: discoverRegisteredInput,
  handler: ({ input, user }) => mcpServers.discover(input.name, user),
});
