// POST /api/datasets/:datasetId/items/:itemId – edit an item of the newest version: { input?: { task, context }, expected?, tags?, note? }
//   → the new version { datasetId, version, itemCount, added, removed }. The item keeps its id (a diff shows it as changed).
//   Audited as dataset.item_updated.
// DELETE /api/datasets/:datasetId/items/:itemId – remove it (no body) → the new version. Audited as dataset.item_removed.
// An item not in the newest version → 404; an archived dataset → 409. Needs agents:edit.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { removeDatasetItemsOperation, updateDatasetItemOperation } from "@/lib/datasets/server/operations";

export const POST = operationRoute(updateDatasetItemOperation, { path: (params: { datasetId: string; itemId: string }) => ({ datasetId: params.datasetId, itemId: params.itemId }) });

export const DELETE = operationRoute(removeDatasetItemsOperation, { path: (params: { datasetId: string; itemId: string }) => ({ datasetId: params.datasetId, itemIds: [params.itemId] }), body: false });
