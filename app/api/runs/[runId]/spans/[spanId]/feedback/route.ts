// POST /api/runs/:runId/spans/:spanId/feedback – set or change your feedback on one span of the run:
//   { rating: "up"|"down", comment? (≤ 2,000 chars) } → { id, rating, comment, changed }. Audited as feedback.set.
// DELETE /api/runs/:runId/spans/:spanId/feedback – remove yours on that span (no body) → { removed: true }; none → 404.
//   Audited as feedback.removed. Unknown run or span → 404. Any signed-in role (session or API key).
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { removeFeedbackOperation, setFeedbackOperation } from "@/lib/feedback/server/operations";

const spanPath = (params: { runId: string; spanId: string }) => ({ runId: params.runId, spanId: params.spanId });

export const POST = operationRoute(setFeedbackOperation, { path: spanPath });

export const DELETE = operationRoute(removeFeedbackOperation, { path: spanPath, body: false });
