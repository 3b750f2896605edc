// GET  /api/agents/:name/versions – the version history, newest first, with run counts.
// POST /api/agents/:name/versions – save a graph as a new version on top of `baseVersion`
//   (builders and admins; 422 with paths for an invalid graph, 409 when the base is stale).
import { apiRoute, parseJsonBody, parseParam } from "@/lib/http/server/api-route";
import { GRAPH_MAX_BODY_BYTES } from "@/lib/http/server/request-guard";
import { getDb } from "@/lib/db/server/db";
import { appendVersion, listVersions } from "@/lib/agents/server/store";
import { agentNameSchema } from "@/lib/agents/schemas";
import { saveVersionInput } from "@/lib/agents/designer-schemas";

export const GET = apiRoute<{ name: string }>({
  permission: "read",
  async handler({ params }) {
    const name = parseParam(agentNameSchema, params.name, "name");
    return Response.json({ versions: await listVersions(getDb(), name) });
  },
});

// The action's schema without the name (it is in the path): the same fields, unknown keys refused the same way.
const body = saveVersionInput.omit({ name: true });

export const POST = apiRoute<{ name: string }>({
  permission: "agents:edit",
  maxBodyBytes: GRAPH_MAX_BODY_BYTES,
  async handler({ request, user, params }) {
    const name = parseParam(agentNameSchema, params.name, "name");
    const input = await parseJsonBody(request, body);
    const saved = await appendVersion(getDb(), name, input, user);
    return Response.json({ version: saved }, { status: 201 });
  },
});
