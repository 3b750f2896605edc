// POST /api/runs/:runId/cancel – cancel the run and its sub-agent conversations → 202.
import { NextResponse } from "next/server";
import { apiRoute, parseParam } from "@/lib/http/server/api-route";
import { getEngine } from "@/lib/engine/server/engine";
import { runIdSchema } from "@/lib/engine/schemas";
import { recordAudit } from "@/lib/users/server/audit";

export const POST = apiRoute<{ runId: string }>({
  permission: "runs:launch",
  handler: async ({ params, user }) => {
    const runId = parseParam(runIdSchema, params.runId, "runId");
    await getEngine().cancelRun(runId);
    await recordAudit({ actorId: user.id, action: "run.cancelled", target: runId });
    return NextResponse.json({ accepted: true }, { status: 202 });
  },
});
