// GET /api/runs/triggers?from=<iso>&to=<iso>[&graph=&version=&startedBy=] – the top-level runs started in the range
//   (both ends included), split by what started them: { from, to, counts: { manual, schedule, webhook, experiment },
//   total } (everyone signed in); 422 naming the field.
import { operationQueryRoute } from "@/lib/http/server/operation-adapters";
import { runTriggersOperation } from "@/lib/runs/server/run-triggers";

export const GET = operationQueryRoute(runTriggersOperation);
