"use server";
import { defineAction } from "../auth/server/action";
import { discoverToolsInput } from "../agents/designer-schemas";
import { discoverMcpTools } from "../agents/server/discover";

/** Connects to an MCP server from the server side and lists its tools, or says why it could not. */
export const discoverMcpToolsAction = defineAction({
  name: "discover-mcp-tools",
  permission: "agents:edit",
  input: discoverToolsInput,
  handler: ({ input }) => discoverMcpTools(input.server),
});
