// DELETE /api/runs/:runId/spans/:spanId/feedback/scores/:key – remove your named score :key on that span (no body)
//   → { removed: true }; none → 404. Audited as feedback.removed. Any signed-in role (session or API key).
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { removeFeedbackOperation } from "@/lib/feedback/server/operations";

export const DELETE = operationRoute(removeFeedbackOperation, {
  path: (params: { runId: string; spanId: string; key: string }) => ({ runId: params.runId, spanId: params.spanId, key: params.key }),
  body: false,
});
