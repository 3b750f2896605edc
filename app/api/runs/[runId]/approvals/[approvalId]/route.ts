// POST /api/runs/:runId/approvals/:approvalId – decide: { approved, reason?, editedArguments? }.
// Approvers and admins only; the decision records who, when and why.
import { NextResponse } from "next/server";
import { apiRoute, parseJsonBody, parseParam } from "@/lib/http/server/api-route";
import { getEngine } from "@/lib/engine/server/engine";
import { decideApprovalSchema, runIdSchema } from "@/lib/engine/schemas";

export const POST = apiRoute<{ runId: string; approvalId: string }>({
  permission: "approvals:decide",
  handler: async ({ request, params, user }) => {
    const body = await parseJsonBody(request, decideApprovalSchema);
    const approval = await getEngine().decideApproval(parseParam(runIdSchema, params.runId, "runId"), {
      approvalId: parseParam(runIdSchema, params.approvalId, "approvalId"),
      approved: body.approved,
      reason: body.reason,
      editedArguments: body.editedArguments,
      decidedBy: { id: user.id, email: user.email, role: user.role },
    });
    return NextResponse.json({ approval });
  },
});
