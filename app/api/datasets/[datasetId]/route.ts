// GET /api/datasets/:datasetId?version=&page=&pageSize= – one page of a version's items (default: the newest version,
//   page 1 of 50): { dataset, version, items, total, page, pageSize }. An unknown version → 404 naming the versions there are.
// DELETE /api/datasets/:datasetId – archive it (no body): it stays readable and exportable, and can no longer change.
//   Audited as dataset.archived. Needs agents:edit.
import { operationQueryRoute, operationRoute } from "@/lib/http/server/operation-adapters";
import { archiveDatasetOperation, getDatasetOperation } from "@/lib/datasets/server/operations";

const datasetPath = (params: { datasetId: string }) => ({ datasetId: params.datasetId });

export const GET = operationQueryRoute(getDatasetOperation, datasetPath);

export const DELETE = operationRoute(archiveDatasetOperation, { path: datasetPath, body: false });
