// POST /api/label-requests/:requestId/decision – { decision: "approve"|"reject", note? }: an approver or admin decides a
//   request to change a protected label (never their own: 403). Approved, the label moves (audited label.set with the
//   request) unless it moved since the request was made (409, the request turns stale). 409 when already decided.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { decideLabelRequestOperation } from "@/lib/labels/server/operations";

export const POST = operationRoute(decideLabelRequestOperation, { path: (params: { requestId: string }) => ({ requestId: params.requestId }) });
