// GET /api/runs/:runId/decisions – the run's decided tool calls with who decided,
// when, and the tool's result after the decision (the inbox's "Result after approval").
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { runDecisionsOperation } from "@/lib/inbox/server/decisions";

export const GET = operationRoute(runDecisionsOperation, { path: (params: { runId: string }) => ({ runId: params.runId }), body: false, headers: { "Cache-Control": "no-store" } });
