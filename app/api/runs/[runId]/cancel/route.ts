// POST /api/runs/:runId/cancel – cancel the run and its sub-agent conversations → 202 { accepted } (cancelRun, as the run page's action).
import { NextResponse } from "next/server";
import { apiRoute, parseParam } from "@/lib/http/server/api-route";
import { runIdSchema } from "@/lib/engine/schemas";
import { cancelRun } from "@/lib/runs/server/run-operations";

export const POST = apiRoute<{ runId: string }>({
  permission: "runs:launch",
  handler: async ({ params, user }) => {
    return NextResponse.json(await cancelRun(parseParam(runIdSchema, params.runId, "runId"), user), { status: 202 });
  },
});
