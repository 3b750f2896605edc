// GET /api/label-requests?graph=&status=pending|approved|rejected|cancelled|stale – requests to change protected
//   labels (pending ones oldest first), each with the graph's diff between the versions. Everyone who reads.
import { operationQueryRoute } from "@/lib/http/server/operation-adapters";
import { listLabelRequestsOperation } from "@/lib/labels/server/operations";

export const GET = operationQueryRoute(listLabelRequestsOperation);
