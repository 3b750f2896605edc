// POST /api/schedules/:scheduleId/resume – resume it (builders and admins; the resumer owns its runs from then on) → { schedule }.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { resumeScheduleOperation } from "@/lib/schedules/server/operations";

export const POST = operationRoute(resumeScheduleOperation, { path: (params: { scheduleId: string }) => ({ id: params.scheduleId }), body: false, respond: (schedule) => ({ schedule }) });
