// GET /api/datasets/approvals?tool=&graphName=&page= – decided tool-call approvals, newest first, 50 a page: { approvals, page, hasMore }.
import { listDecidedApprovalsOperation } from "@/lib/datasets/server/operations";
import { operationQueryRoute } from "@/lib/http/server/operation-adapters";

export const GET = operationQueryRoute(listDecidedApprovalsOperation);
