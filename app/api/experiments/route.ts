// GET /api/experiments?limit=N – the newest experiments with their progress: { experiments }.
// POST /api/experiments – start one: { name?, dataset, datasetVersion?, targets: [{ graph, version, model? }] (1–6),
//   scorers, thresholds?, concurrency? (1–16, default 4), approvals? ("reject" | "approve"), stubs?, liveTools? }
//   → 201 { experimentId, total }. Unknown dataset or version 404, 0 items / a version failing validation /
//   a side-effecting live tool / unknown keys 422. Audited as experiment.started.
import { apiRoute, parseQuery } from "@/lib/http/server/api-route";
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { listExperimentsSchema } from "@/lib/experiments/schemas";
import { listExperimentsOperation, startExperimentOperation } from "@/lib/experiments/server/operations";

export const GET = apiRoute({
  permission: listExperimentsOperation.permission,
  handler: async ({ request, user }) =>
    Response.json(await listExperimentsOperation.run({ input: parseQuery(request, listExperimentsSchema), user }), { headers: { "Cache-Control": "no-store" } }),
});

export const POST = operationRoute(startExperimentOperation, { status: 201 });
