// GET  /api/mcp-servers – the registered MCP servers, without secret values (viewers and up).
// POST /api/mcp-servers – register a server (admins; 422 naming the field, e.g. transport.command off the allowlist).
import { apiRoute } from "@/lib/http/server/api-route";
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { createMcpServerOperation } from "@/lib/mcp/server/operations";
import { mcpServers } from "@/lib/mcp/server/web";

export const GET = apiRoute({
  permission: "read",
  async handler() {
    return Response.json({ servers: await mcpServers.list() });
  },
});

export const POST = operationRoute(createMcpServerOperation, { status: 201, respond: (server) => ({ server }) });
