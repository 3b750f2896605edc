// GET    /api/mcp-servers/:name – one registered server, without secret values (admins).
// PATCH  /api/mcp-servers/:name – change it; omitted secrets keep their values, null removes one (admins).
// DELETE /api/mcp-servers/:name – remove it (admins).
import { apiRoute, parseJsonBody, parseParam } from "@/lib/http/server/api-route";
import { mcpServerNameSchema, mcpServerUpdateSchema } from "@/lib/mcp/schemas";
import { mcpServers } from "@/lib/mcp/server/web";

export const GET = apiRoute<{ name: string }>({
  permission: "mcp:manage",
  async handler({ params }) {
    return Response.json({ server: await mcpServers.get(parseParam(mcpServerNameSchema, params.name, "name")) });
  },
});

export const PATCH = apiRoute<{ name: string }>({
  permission: "mcp:manage",
  async handler({ request, user, params }) {
    const name = parseParam(mcpServerNameSchema, params.name, "name");
    const patch = await parseJsonBody(request, mcpServerUpdateSchema);
    return Response.json({ server: await mcpServers.update(name, patch, user) });
  },
});

export const DELETE = apiRoute<{ name: string }>({
  permission: "mcp:manage",
  async handler({ user, params }) {
    await mcpServers.remove(parseParam(mcpServerNameSchema, params.name, "name"), user);
    return new Response(null, { status: 204 });
  },
});
