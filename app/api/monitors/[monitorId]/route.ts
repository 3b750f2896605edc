// GET    /api/monitors/:monitorId – one monitor with its open alert (everyone signed in).
// PATCH  /api/monitors/:monitorId – change it, e.g. { "enabled": false } (builders and admins; disabling a firing monitor resolves its alert).
// DELETE /api/monitors/:monitorId – delete it (builders and admins; its alerts stay in the history) → 200 { deleted: id }.
import { apiRoute, parseParam } from "@/lib/http/server/api-route";
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { monitorIdSchema } from "@/lib/monitors/schemas";
import { deleteMonitorOperation, updateMonitorOperation } from "@/lib/monitors/server/operations";
import { monitors } from "@/lib/monitors/server/web";

type Params = { monitorId: string };

export const GET = apiRoute<Params>({
  permission: "read",
  async handler({ params }) {
    return Response.json({ monitor: await monitors.get(parseParam(monitorIdSchema, params.monitorId, "monitorId")) });
  },
});

const byId = (params: Params) => ({ id: params.monitorId });

export const PATCH = operationRoute(updateMonitorOperation, { path: byId, bodyAs: "patch", respond: (monitor) => ({ monitor }) });

export const DELETE = operationRoute(deleteMonitorOperation, { path: byId, body: false });
