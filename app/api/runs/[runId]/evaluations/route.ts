// GET /api/runs/:runId/evaluations – every online evaluator's decision on the run (its root run), with the scores
//   (everyone signed in) → { evaluations }.
import { operationQueryRoute } from "@/lib/http/server/operation-adapters";
import { evaluationsOfRunOperation } from "@/lib/online-eval/server/operations";

export const GET = operationQueryRoute(evaluationsOfRunOperation, (params: { runId: string }) => ({ runId: params.runId }), (evaluations) => Response.json({ evaluations }, { headers: { "Cache-Control": "no-store" } }));
