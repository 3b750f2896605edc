// POST /api/agents/:name/versions/:version/promote – make draft :version the graph's default version (what a run,
//   the run dialog or the experiment form takes when no version is named) → 200 with the version; 409 when it is no
//   draft, or when a version that is not a draft was saved after it. Audited agent.version_promoted. Builders and
//   admins (the designer's operation).
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { promoteVersionOperation } from "@/lib/agents/server/operations";

export const POST = operationRoute(promoteVersionOperation, {
  // The schema coerces nothing: the path's text becomes the number the action's input carries.
  path: (params: { name: string; version: string }) => ({ name: params.name, version: /^\d+$/.test(params.version) ? Number(params.version) : params.version }),
  body: false,
});
