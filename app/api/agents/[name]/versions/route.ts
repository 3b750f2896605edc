// GET  /api/agents/:name/versions – the version history, newest first, with run counts.
// POST /api/agents/:name/versions – save a graph as a new version on top of `baseVersion`
//   (the designer's operation: builders and admins; 422 with paths for an invalid graph, 409 when the base is stale).
import { apiRoute, parseParam } from "@/lib/http/server/api-route";
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { GRAPH_MAX_BODY_BYTES } from "@/lib/http/server/request-guard";
import { getDb } from "@/lib/db/server/db";
import { listVersions } from "@/lib/agents/server/store";
import { saveVersionOperation } from "@/lib/agents/server/operations";
import { agentNameSchema } from "@/lib/agents/schemas";

export const GET = apiRoute<{ name: string }>({
  permission: "read",
  async handler({ params }) {
    const name = parseParam(agentNameSchema, params.name, "name");
    return Response.json({ versions: await listVersions(getDb(), name) });
  },
});

export const POST = operationRoute(saveVersionOperation, {
  path: (params: { name: string }) => ({ name: params.name }),
  maxBodyBytes: GRAPH_MAX_BODY_BYTES,
  status: 201,
  respond: (version) => ({ version }),
});
