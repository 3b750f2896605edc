// POST /api/schedules/:scheduleId/trigger – "run now": one firing at once (builders and admins; 409 when paused,
//   503 when Temporal does not take it) → { triggered: id }.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { triggerScheduleOperation } from "@/lib/schedules/server/operations";

export const POST = operationRoute(triggerScheduleOperation, { path: (params: { scheduleId: string }) => ({ id: params.scheduleId }), body: false });
