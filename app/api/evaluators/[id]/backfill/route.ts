// POST /api/evaluators/:id/backfill – { from, to } (ISO times in the past, at most 31 days): score the evaluator's
//   runs that ended in [from, to), each once; runs already evaluated stay as they are (builders and admins) → 201 { backfill }.
// GET  /api/evaluators/:id/backfill – its backfills, newest first (everyone signed in) → { backfills }.
import { operationQueryRoute, operationRoute } from "@/lib/http/server/operation-adapters";
import { listBackfillsOperation, startBackfillOperation } from "@/lib/online-eval/server/operations";

type Params = { id: string };
const byId = (params: Params) => ({ id: params.id });

export const POST = operationRoute(startBackfillOperation, { path: byId, status: 201, respond: (backfill) => ({ backfill }) });

export const GET = operationQueryRoute(listBackfillsOperation, byId, (backfills) => Response.json({ backfills }, { headers: { "Cache-Control": "no-store" } }));
