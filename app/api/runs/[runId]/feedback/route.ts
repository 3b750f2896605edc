// GET /api/runs/:runId/feedback – the feedback on the run and its spans (a root run: its whole tree), newest first: { runId, items }.
// POST /api/runs/:runId/feedback – set or change your feedback on the run (or on a span: spanId in the body, or the span's
//   route below): the thumbs { spanId?, rating: "up"|"down", comment? (≤ 2,000 chars) }, or a named score
//   { spanId?, key: "accuracy", value: 0.8 | category: "polite", comment? } (one per user, target and key)
//   → { id, rating, key, value, category, comment, changed }. Audited as feedback.set (never the comment's text).
//   Unknown run or span → 404; both or neither of thumbs and score, or unknown keys → 422.
// DELETE /api/runs/:runId/feedback – remove your thumbs on the run (no body) → { removed: true }; none → 404. Audited as
//   feedback.removed. A named score: DELETE /api/runs/:runId/feedback/scores/:key.
// Any signed-in role (session or API key). A span's: /api/runs/:runId/spans/:spanId/feedback.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { listFeedbackOperation, removeFeedbackOperation, setFeedbackOperation } from "@/lib/feedback/server/operations";

const runPath = (params: { runId: string }) => ({ runId: params.runId });

export const GET = operationRoute(listFeedbackOperation, { path: runPath, body: false, headers: { "Cache-Control": "no-store" } });

export const POST = operationRoute(setFeedbackOperation, { path: runPath });

export const DELETE = operationRoute(removeFeedbackOperation, { path: runPath, body: false });
