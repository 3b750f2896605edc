// GET /api/runs – runs, newest first (?agent=<entry agent>&limit=N).
// POST /api/runs – start a run of a saved agent: { agent, task, context? } → 201 { runId }.
import { NextResponse } from "next/server";
import { apiRoute, parseJsonBody, parseQuery } from "@/lib/http/server/api-route";
import { getEngine } from "@/lib/engine/server/engine";
import { listRunsSchema, startRunSchema } from "@/lib/engine/schemas";

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
    const body = await parseJsonBody(request, startRunSchema);
    const { runId } = await getEngine().startRun({ agentName: body.agent, task: body.task, context: body.context, startedBy: { id: user.id, email: user.email } });
    return NextResponse.json({ runId }, { status: 201 });
  },
});
