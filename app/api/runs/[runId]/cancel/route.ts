// POST /api/runs/:runId/cancel – cancel the run and its sub-agent conversations → 202 { accepted } (the run page's operation).
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { cancelRunOperation } from "@/lib/runs/server/run-operations";

export const POST = operationRoute(cancelRunOperation, { path: (params: { runId: string }) => ({ runId: params.runId }), body: false, status: 202 });
