"use server";
import { revalidatePath } from "next/cache";
import { defineAction } from "../http/server/action";
import { updateMcpServerInput } from "../mcp/schemas";
import { mcpServers } from "../mcp/server/web";

/** Changes a registered MCP server (admin); omitted secrets keep their values, null removes one. */
export const updateMcpServerAction = defineAction({
  name: "update-mcp-server",
  permission: "mcp:manage",
  input: updateMcpServerInput,
  async handler({ input, user }) {
    const updated = await mcpServers.update(input.name, input.patch, user);
    revalidatePath("/admin/mcp");
    return updated;
  },
});
