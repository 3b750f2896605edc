// GET /api/runs/:runId/approvals – the run's pending approvals (from its own query, or the
// ledger's records marked unconfirmed when the run does not answer within the query deadline),
// with chain, preceding message, tokens and tool schema, for deciding from the run page.
import { NextResponse } from "next/server";
import { apiRoute, parseParam } from "@/lib/http/server/api-route";
import { getEngine } from "@/lib/engine/server/engine";
import { getDb } from "@/lib/db/server/db";
import { runIdSchema } from "@/lib/contract/schemas";
import { loadRunApprovals } from "@/lib/inbox/server/inbox";

export const GET = apiRoute<{ runId: string }>({
  permission: "read",
  handler: async ({ params }) => {
    const runId = parseParam(runIdSchema, params.runId, "runId");
    return NextResponse.json({ approvals: await loadRunApprovals(getEngine(), getDb(), runId), serverTime: new Date().toISOString() });
  },
});
