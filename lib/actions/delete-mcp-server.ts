"use server";
import { revalidatePath } from "next/cache";
import { defineAction } from "../http/server/action";
import { mcpServerRefInput } from "../mcp/schemas";
import { mcpServers } from "../mcp/server/web";

/** Removes a registered MCP server (admin). */
export const deleteMcpServerAction = defineAction({
  name: "delete-mcp-server",
  permission: "mcp:manage",
  input: mcpServerRefInput,
  async handler({ input, user }) {
    await mcpServers.remove(input.name, user);
    revalidatePath("/admin/mcp");
    return { deleted: input.name };
  },
});
