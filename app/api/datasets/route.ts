// GET /api/datasets?includeArchived=true – datasets, last changed first: { datasets } (any role).
// POST /api/datasets – create an empty one: { name, description? } → 201 the dataset. A name in use → 409.
//   Audited as dataset.created. Needs agents:edit (builders and admins).
import { operationQueryRoute, operationRoute } from "@/lib/http/server/operation-adapters";
import { createDatasetOperation, listDatasetsOperation } from "@/lib/datasets/server/operations";

export const GET = operationQueryRoute(listDatasetsOperation);

export const POST = operationRoute(createDatasetOperation, { status: 201 });
