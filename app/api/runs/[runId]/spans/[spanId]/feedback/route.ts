// POST /api/runs/:runId/spans/:spanId/feedback – set or change your feedback on one span of the run:
//   the thumbs { rating: "up"|"down", comment? (≤ 2,000 chars) } or a named score { key, value | category, comment? }
//   → { id, rating, key, value, category, comment, changed }. Audited as feedback.set.
// DELETE /api/runs/:runId/spans/:spanId/feedback – remove your thumbs on that span (no body) → { removed: true }; none → 404
//   (a named score: …/feedback/scores/:key).
//   Audited as feedback.removed. Unknown run or span → 404. Any signed-in role (session or API key).
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { removeFeedbackOperation, setFeedbackOperation } from "@/lib/feedback/server/operations";

const spanPath = (params: { runId: string; spanId: string }) => ({ runId: params.runId, spanId: params.spanId });

export const POST = operationRoute(setFeedbackOperation, { path: spanPath });

export const DELETE = operationRoute(removeFeedbackOperation, { path: spanPath, body: false });
