// POST /api/schedules/:scheduleId/backfill – { from, to } (ISO times in the past, at most 31 days and 20 firings):
//   start the firings of that range now (builders and admins) → { backfilled: id, firings }.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { backfillScheduleOperation } from "@/lib/schedules/server/operations";

export const POST = operationRoute(backfillScheduleOperation, { path: (params: { scheduleId: string }) => ({ id: params.scheduleId }) });
