// POST /api/agents/:name/versions/:version/restore – save version :version again as the newest, on top of
//   { baseVersion } → 201 with the new version; 409 when the base is stale (the designer's operation; builders and admins).
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { restoreVersionOperation } from "@/lib/agents/server/operations";

export const POST = operationRoute(restoreVersionOperation, {
  // The schema coerces nothing: the path's text becomes the number the action's input carries.
  path: (params: { name: string; version: string }) => ({ name: params.name, version: /^\d+$/.test(params.version) ? Number(params.version) : params.version }),
  status: 201,
});
