// GET    /api/evaluators/:id – one evaluator (everyone signed in).
// PATCH  /api/evaluators/:id – change it, e.g. { "enabled": false } (builders and admins; the name and graph stay).
// DELETE /api/evaluators/:id – delete it with its evaluations (builders and admins) → { deleted: true }.
import { operationQueryRoute, operationRoute } from "@/lib/http/server/operation-adapters";
import { deleteEvaluatorOperation, getEvaluatorOperation, updateEvaluatorOperation } from "@/lib/online-eval/server/operations";

type Params = { id: string };
const byId = (params: Params) => ({ id: params.id });

export const GET = operationQueryRoute(getEvaluatorOperation, byId, (evaluator) => Response.json({ evaluator }, { headers: { "Cache-Control": "no-store" } }));

export const PATCH = operationRoute(updateEvaluatorOperation, { path: byId, respond: (evaluator) => ({ evaluator }) });

export const DELETE = operationRoute(deleteEvaluatorOperation, { path: byId, body: false });
