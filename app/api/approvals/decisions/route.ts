// POST /api/approvals/decisions – decide several approvals at once, as the inbox's bulk action does:
//   { items: [{ runId, approvalId }], approved, reason? } → one outcome per approval (one failure does not
//   stop the others); approvers and admins; each decision is audited by its run.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { bulkDecideOperation } from "@/lib/inbox/server/decide";

export const POST = operationRoute(bulkDecideOperation);
