// GET  /api/evaluators – every online evaluator with its last day's figures (everyone signed in).
// POST /api/evaluators – create one (builders and admins; 422 naming the field — a graph, version or dataset that
//   does not exist, an unregistered custom scorer, a pattern RE2 cannot run —, 409 on a name in use) → 201 { evaluator }.
import { operationQueryRoute, operationRoute } from "@/lib/http/server/operation-adapters";
import { createEvaluatorOperation, listEvaluatorsOperation } from "@/lib/online-eval/server/operations";

export const GET = operationQueryRoute(listEvaluatorsOperation, undefined, (evaluators) => Response.json({ evaluators }, { headers: { "Cache-Control": "no-store" } }));

export const POST = operationRoute(createEvaluatorOperation, { status: 201, respond: (evaluator) => ({ evaluator }) });
