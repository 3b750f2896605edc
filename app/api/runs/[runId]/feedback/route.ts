// GET /api/runs/:runId/feedback – the feedback on the run and its spans (a root run: its whole tree), newest first: { runId, items }.
// POST /api/runs/:runId/feedback – set or change your feedback on the run (or on a span: spanId in the body, or the span's
//   route below): { spanId?, rating: "up"|"down", comment? (≤ 2,000 chars) } → { id, rating, comment, changed }.
//   Audited as feedback.set. Unknown run or span → 404; unknown keys → 422.
// DELETE /api/runs/:runId/feedback – remove yours on the run (no body) → { removed: true }; none → 404. Audited as feedback.removed.
// Any signed-in role (session or API key). A span's: /api/runs/:runId/spans/:spanId/feedback.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { listFeedbackOperation, removeFeedbackOperation, setFeedbackOperation } from "@/lib/feedback/server/operations";

const runPath = (params: { runId: string }) => ({ runId: params.runId });

export const GET = operationRoute(listFeedbackOperation, { path: runPath, body: false, headers: { "Cache-Control": "no-store" } });

export const POST = operationRoute(setFeedbackOperation, { path: runPath });

export const DELETE = operationRoute(removeFeedbackOperation, { path: runPath, body: false });
