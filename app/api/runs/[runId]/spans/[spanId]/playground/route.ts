// POST /api/runs/:runId/spans/:spanId/playground – open a recorded model call in the playground: the conversation as
//   the model saw it (≤ 200 messages: the system prompt and the newest), the tools it was offered (described now by a
//   worker: a workflow that may connect to the agent's MCP servers, hence a POST, never a GET), model, temperature,
//   max output tokens, the run timeout, and the original output with tokens and cost. Any signed-in role; no body.
//   Audited as playground.opened; 20 a minute per user or API key, then 429 with Retry-After.
//   A span that is not a completed model call → 422; unknown run or span → 404; no worker to describe the tools → 504.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { loadPlaygroundOperation } from "@/lib/playground/server/operations";

export const POST = operationRoute(loadPlaygroundOperation, {
  path: (params: { runId: string; spanId: string }) => ({ runId: params.runId, spanId: params.spanId }),
  body: false,
  headers: { "Cache-Control": "no-store" },
});
