// GET /api/runs – runs, newest first (?agent=<entry agent>&limit=N).
// POST /api/runs – start a run of a saved agent, as the run dialog does:
//   { agent, task, context?, version?, model? } → 201 { runId }; unknown keys → 422.
import { NextResponse } from "next/server";
import { apiRoute, parseJsonBody, parseQuery } from "@/lib/http/server/api-route";
import { getEngine } from "@/lib/engine/server/engine";
import { listRunsSchema } from "@/lib/engine/schemas";
import { launchRunSchema } from "@/lib/runs/schemas";
import { launchRun } from "@/lib/runs/server/launch";

export const GET = apiRoute({
  permission: "read",
  handler: async ({ request }) => {
    const { agent, limit } = parseQuery(request, listRunsSchema);
    const runs = await getEngine().listRuns({ agentName: agent, limit });
    return NextResponse.json({ runs });
  },
});

export const POST = apiRoute({
  permission: "runs:launch",
  handler: async ({ request, user }) => {
    const { runId } = await launchRun(await parseJsonBody(request, launchRunSchema), user);
    return NextResponse.json({ runId }, { status: 201 });
  },
});
