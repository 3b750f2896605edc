// GET /api/runs – top-level runs, newest first (?graph=<saved agent graph>&entryAgent=<its entry agent>&limit=N).
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
    const { graph, entryAgent, limit } = parseQuery(request, listRunsSchema);
    const runs = await getEngine().listRuns({ graph, entryAgent, limit });
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
