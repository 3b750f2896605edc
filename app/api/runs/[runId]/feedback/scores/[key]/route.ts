// DELETE /api/runs/:runId/feedback/scores/:key – remove your named score :key on the run (no body) → { removed: true };
//   none → 404. Audited as feedback.removed. Any signed-in role (session or API key). Scores are set with
//   POST /api/runs/:runId/feedback { key, value | category, comment? } (the same operation as the thumbs).
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { removeFeedbackOperation } from "@/lib/feedback/server/operations";

export const DELETE = operationRoute(removeFeedbackOperation, { path: (params: { runId: string; key: string }) => ({ runId: params.runId, key: params.key }), body: false });
