// GET /api/runs/:runId/spans/:spanId/playground – a recorded model call, ready for the playground: the conversation as
//   the model saw it (≤ 200 messages: the system prompt and the newest), the tools it was offered, model, temperature,
//   max output tokens, the run timeout, and the original output with tokens and cost. Any signed-in role.
//   A span that is not a completed model call → 422; unknown run or span → 404; no worker to describe the tools → 504.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { loadPlaygroundOperation } from "@/lib/playground/server/operations";

export const GET = operationRoute(loadPlaygroundOperation, {
  path: (params: { runId: string; spanId: string }) => ({ runId: params.runId, spanId: params.spanId }),
  body: false,
  headers: { "Cache-Control": "no-store" },
});
