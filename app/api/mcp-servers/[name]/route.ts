// GET    /api/mcp-servers/:name – one registered server, without secret values (admins).
// PATCH  /api/mcp-servers/:name – change it; omitted secrets keep their values, null removes one (admins).
// DELETE /api/mcp-servers/:name – remove it (admins) → 200 { deleted: name }, as the admin page's action answers.
import { apiRoute, parseParam } from "@/lib/http/server/api-route";
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { mcpServerNameSchema } from "@/lib/mcp/schemas";
import { deleteMcpServerOperation, updateMcpServerOperation } from "@/lib/mcp/server/operations";
import { mcpServers } from "@/lib/mcp/server/web";

export const GET = apiRoute<{ name: string }>({
  permission: "mcp:manage",
  async handler({ params }) {
    return Response.json({ server: await mcpServers.get(parseParam(mcpServerNameSchema, params.name, "name")) });
  },
});

const byName = (params: { name: string }) => ({ name: params.name });

export const PATCH = operationRoute(updateMcpServerOperation, { path: byName, bodyAs: "patch", respond: (server) => ({ server }) });

export const DELETE = operationRoute(deleteMcpServerOperation, { path: byName, body: false });
