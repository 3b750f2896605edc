// POST /api/experiments/:id/cancel – cancel a running experiment (its in-flight item runs too) → 202 { accepted }.
// Only its creator, admins and the role the workspace policy names for others' runs — the rule for runs
// (lib/runs/server/run-ownership.ts) — else 403 naming the creator. A finished experiment → 409. Audited as experiment.cancelled.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { cancelExperimentOperation } from "@/lib/experiments/server/operations";

export const POST = operationRoute(cancelExperimentOperation, { path: (params: { experimentId: string }) => ({ experimentId: params.experimentId }), body: false, status: 202 });
