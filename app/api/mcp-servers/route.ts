// GET  /api/mcp-servers – the registered MCP servers, without secret values (viewers and up).
// POST /api/mcp-servers – register a server (admins; 422 naming the field, e.g. transport.command off the allowlist).
import { apiRoute, parseJsonBody } from "@/lib/http/server/api-route";
import { mcpServerCreateSchema } from "@/lib/mcp/schemas";
import { mcpServers } from "@/lib/mcp/server/web";

export const GET = apiRoute({
  permission: "read",
  async handler() {
    return Response.json({ servers: await mcpServers.list() });
  },
});

export const POST = apiRoute({
  permission: "mcp:manage",
  async handler({ request, user }) {
    const input = await parseJsonBody(request, mcpServerCreateSchema);
    return Response.json({ server: await mcpServers.create(input, user) }, { status: 201 });
  },
});
