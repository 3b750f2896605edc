// POST /api/runs/:runId/approvals/:approvalId – decide: { approved, reason?, editedArguments? } → { approval }.
// Approvers and admins only; the same schema rules and the same decideOne as the inbox's action
// (the workflow records who, when and why, and writes the audit row, before applying it).
import { NextResponse } from "next/server";
import { apiRoute, parseJsonBody, parseParam } from "@/lib/http/server/api-route";
import { getEngine } from "@/lib/engine/server/engine";
import { runIdSchema } from "@/lib/engine/schemas";
import { decisionBodySchema } from "@/lib/inbox/schemas";
import { decideOne } from "@/lib/inbox/server/decide";

export const POST = apiRoute<{ runId: string; approvalId: string }>({
  permission: "approvals:decide",
  handler: async ({ request, params, user }) => {
    const runId = parseParam(runIdSchema, params.runId, "runId");
    const approvalId = parseParam(runIdSchema, params.approvalId, "approvalId");
    const body = await parseJsonBody(request, decisionBodySchema);
    return NextResponse.json({ approval: await decideOne(getEngine(), user, { runId, approvalId, ...body }) });
  },
});
