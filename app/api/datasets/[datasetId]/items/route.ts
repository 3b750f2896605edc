// DELETE /api/datasets/:datasetId/items – remove several items of the newest version: { itemIds, note? } → the new version.
//   Leaving 0 items → 422 (archive the dataset instead). Audited as dataset.item_removed. Needs agents:edit.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { removeDatasetItemsOperation } from "@/lib/datasets/server/operations";

export const DELETE = operationRoute(removeDatasetItemsOperation, { path: (params: { datasetId: string }) => ({ datasetId: params.datasetId }) });
