// GET  /api/schedules[?graph=<name>] – every schedule (of one graph) with its next firings (everyone signed in).
// POST /api/schedules – create a schedule (builders and admins): { name, graph, version?, cron | intervalSeconds,
//   timeZone?, jitterSeconds?, task, context?, overlap?, failureLimit? } → 201 { schedule }; 422 naming the field,
//   409 on a name in use or past 200 schedules.
import { operationQueryRoute, operationRoute } from "@/lib/http/server/operation-adapters";
import { createScheduleOperation, listSchedulesOperation } from "@/lib/schedules/server/operations";

export const GET = operationQueryRoute(listSchedulesOperation, undefined, (schedules) => Response.json({ schedules }, { headers: { "Cache-Control": "no-store" } }));

export const POST = operationRoute(createScheduleOperation, { status: 201, respond: (schedule) => ({ schedule }) });
