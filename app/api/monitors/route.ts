// GET  /api/monitors – every monitor with its open alert, if it fires (everyone signed in).
// POST /api/monitors – create a monitor (builders and admins; 422 naming the field, 409 on a name in use or past
//   MONITOR_LIMITS: 50 per person, 500 in the workspace).
import { apiRoute } from "@/lib/http/server/api-route";
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { createMonitorOperation } from "@/lib/monitors/server/operations";
import { monitors } from "@/lib/monitors/server/web";

export const GET = apiRoute({
  permission: "read",
  async handler() {
    return Response.json({ monitors: await monitors.list() });
  },
});

export const POST = operationRoute(createMonitorOperation, { status: 201, respond: (monitor) => ({ monitor }) });
