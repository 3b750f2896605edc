"use server";
import { z } from "zod";
import { defineAction } from "../http/server/action";
import { mcpServers } from "../mcp/server/web";

/** The registered MCP servers, without secret values (the designer picks from them). */
export const listMcpServersAction = defineAction({
  name: "list-mcp-servers",
  permission: "read",
  input: z.strictObject({}),
  handler: () => mcpServers.list(),
});
