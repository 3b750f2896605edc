import "server-only";
// The operations on the MCP registry, one each (schema, permission, act and
// audit in registry.ts and discover.ts), from which the admin page's and the
// designer's server actions and the /api/mcp-servers routes are built.
import { operation } from "../../http/server/operation";
import { discoverRegisteredInput, mcpServerCreateSchema, mcpServerRefInput, updateMcpServerInput } from "../schemas";
import { mcpServers } from "./web";

export const createMcpServerOperation = operation({
  name: "create-mcp-server",
  permission: "mcp:manage",
  input: mcpServerCreateSchema,
  run: ({ input, user }) => mcpServers.create(input, user),
});

export const updateMcpServerOperation = operation({
  name: "update-mcp-server",
  permission: "mcp:manage",
  input: updateMcpServerInput,
  run: ({ input, user }) => mcpServers.update(input.name, input.patch, user),
});

export const deleteMcpServerOperation = operation({
  name: "delete-mcp-server",
  permission: "mcp:manage",
  input: mcpServerRefInput,
  async run({ input, user }) {
    await mcpServers.remove(input.name, user);
    return { deleted: input.name };
  },
});

/** Lists a registered server's tools through a worker (builders see only the allowed ones); no route. */
export const discoverMcpToolsOperation = operation({
  name: "discover-mcp-tools",
  permission: "agents:edit",
  input: discoverRegisteredInput,
  run: ({ input, user }) => mcpServers.discover(input.name, user),
});
