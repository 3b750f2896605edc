// POST /api/label-requests/:requestId/cancel – the requester withdraws a pending request (403 for anyone else).
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { cancelLabelRequestOperation } from "@/lib/labels/server/operations";

export const POST = operationRoute(cancelLabelRequestOperation, { path: (params: { requestId: string }) => ({ requestId: params.requestId }), body: false });
