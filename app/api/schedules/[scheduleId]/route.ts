// GET    /api/schedules/:scheduleId – one schedule with its next firings (everyone signed in).
// PATCH  /api/schedules/:scheduleId – change it, e.g. { "intervalSeconds": 300, "cron": null } (builders and admins;
//   whoever changes a schedule owns its runs from then on).
// DELETE /api/schedules/:scheduleId – delete it and its Temporal Schedule (its runs stay) → 200 { deleted: id }.
import { operationQueryRoute, operationRoute } from "@/lib/http/server/operation-adapters";
import { deleteScheduleOperation, getScheduleOperation, updateScheduleOperation } from "@/lib/schedules/server/operations";

type Params = { scheduleId: string };
const byId = (params: Params) => ({ id: params.scheduleId });

export const GET = operationQueryRoute(getScheduleOperation, byId, (schedule) => Response.json({ schedule }, { headers: { "Cache-Control": "no-store" } }));

export const PATCH = operationRoute(updateScheduleOperation, { path: byId, bodyAs: "patch", respond: (schedule) => ({ schedule }) });

export const DELETE = operationRoute(deleteScheduleOperation, { path: byId, body: false });
