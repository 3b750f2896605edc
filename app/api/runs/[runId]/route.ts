// GET /api/runs/:runId – the run's summary (status, usage, output or error, plan outcome),
// from the run ledger: it answers whatever state the run's workflow is in, with no worker up,
// and after Temporal's retention (the TypeScript client's getRun and waitForRun read it here).
import { NextResponse } from "next/server";
import { apiRoute, parseParam } from "@/lib/http/server/api-route";
import { getEngine } from "@/lib/engine/server/engine";
import { runIdSchema } from "@/lib/contract/schemas";

export const GET = apiRoute<{ runId: string }>({
  permission: "read",
  handler: async ({ params }) => NextResponse.json({ run: await getEngine().getRun(parseParam(runIdSchema, params.runId, "runId")) }),
});
