// GET /api/datasets/:datasetId/diff?from=1&to=3 – what changed between two versions: { from, to, added, removed, changed: [{ before, after }] }.
import { diffDatasetVersionsOperation } from "@/lib/datasets/server/operations";
import { operationQueryRoute } from "@/lib/http/server/operation-adapters";

export const GET = operationQueryRoute(diffDatasetVersionsOperation, (params: { datasetId: string }) => ({ datasetId: params.datasetId }));
