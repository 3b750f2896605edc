// GET /api/datasets/:datasetId/versions – every version, newest first, with its note and item count: { dataset, versions }.
import { listDatasetVersionsOperation } from "@/lib/datasets/server/operations";
import { operationQueryRoute } from "@/lib/http/server/operation-adapters";

export const GET = operationQueryRoute(listDatasetVersionsOperation, (params: { datasetId: string }) => ({ datasetId: params.datasetId }));
