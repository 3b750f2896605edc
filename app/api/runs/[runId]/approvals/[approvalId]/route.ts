// POST /api/runs/:runId/approvals/:approvalId – decide: { approved, reason?, editedArguments? } → { approval }.
// Approvers and admins only; the inbox's operation (schema, role, decideOne): the workflow
// records who, when and why, and writes the audit row, before applying it.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { decideOperation } from "@/lib/inbox/server/decide";

export const POST = operationRoute(decideOperation, {
  path: (params: { runId: string; approvalId: string }) => ({ runId: params.runId, approvalId: params.approvalId }),
  respond: (approval) => ({ approval }),
});
