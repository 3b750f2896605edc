// POST /api/schedules/:scheduleId/pause – pause it, optionally { "note": "why" } (builders and admins) → { schedule }.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { pauseScheduleOperation } from "@/lib/schedules/server/operations";

export const POST = operationRoute(pauseScheduleOperation, { path: (params: { scheduleId: string }) => ({ id: params.scheduleId }), respond: (schedule) => ({ schedule }) });
