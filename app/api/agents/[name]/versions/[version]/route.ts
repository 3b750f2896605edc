// GET /api/agents/:name/versions/:version – one saved version as an export file (JSON download).
import { z } from "zod";
import { apiRoute, parseParam } from "@/lib/http/server/api-route";
import { getDb } from "@/lib/db/server/db";
import { getVersion } from "@/lib/agents/server/store";
import { exportGraphJson } from "@/lib/agents/graph-json";
import { agentNameSchema } from "@/lib/agents/schemas";

export const GET = apiRoute<{ name: string; version: string }>({
  permission: "read",
  async handler({ params }) {
    const name = parseParam(agentNameSchema, params.name, "name");
    const version = parseParam(z.coerce.number().int().min(1), params.version, "version");
    const stored = await getVersion(getDb(), name, version);
    return new Response(exportGraphJson(name, stored.version, stored.graph), {
      headers: { "content-type": "application/json; charset=utf-8", "content-disposition": `attachment; filename="${name}-v${stored.version}.json"` },
    });
  },
});
