"use server";
import { z } from "zod";
import { defineAction } from "../http/server/action";
import { can } from "../access/roles";
import { mcpServers } from "../mcp/server/web";

/** The registered MCP servers (no secret values) and whether this user may register more: what the designer offers. */
export const mcpRegistryForDesignerAction = defineAction({
  name: "mcp-registry-for-designer",
  permission: "read",
  input: z.strictObject({}),
  handler: async ({ user }) => ({ servers: await mcpServers.list(), canManage: can(user.role, "mcp:manage") }),
});
