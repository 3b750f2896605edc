"use server";
import { revalidatePath } from "next/cache";
import { defineAction } from "../http/server/action";
import { mcpServerCreateSchema } from "../mcp/schemas";
import { mcpServers } from "../mcp/server/web";

/** Registers an MCP server (admin); a stdio command off the allowlist is refused naming transport.command. */
export const createMcpServerAction = defineAction({
  name: "create-mcp-server",
  permission: "mcp:manage",
  input: mcpServerCreateSchema,
  async handler({ input, user }) {
    const created = await mcpServers.create(input, user);
    revalidatePath("/admin/mcp");
    return created;
  },
});
