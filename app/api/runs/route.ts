// GET /api/runs – top-level runs, newest first, each with its plan outcome (?graph=<saved agent graph>&entryAgent=<its entry agent>&scheduleId=<sch_…>&limit=N).
// POST /api/runs – start a run of a saved agent, as the run dialog does:
//   { graph, task, images?, context?, version? | label?, model? } → 201 { runId } (graph: the saved agent graph;
//   label: a version label such as production, resolved at the start to its version or its split's: docs/labels.md);
//   unknown keys (the old `agent` too) → 422 naming them. `images`: up to 5 of
//   { attachmentId } (POST /api/attachments first), { data } (base64) or { url };
//   the body holds at most one 10 MB image as base64 (upload larger sets first).
import { NextResponse } from "next/server";
import { apiRoute, parseQuery } from "@/lib/http/server/api-route";
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { getEngine } from "@/lib/engine/server/engine";
import { listRunsSchema } from "@/lib/contract/schemas";
import { startRunOperation } from "@/lib/runs/server/run-operations";
import { UPLOAD_MAX_BODY_BYTES } from "@/lib/attachments/schemas";

export const GET = apiRoute({
  permission: "read",
  handler: async ({ request }) => {
    const { graph, entryAgent, scheduleId, limit } = parseQuery(request, listRunsSchema);
    const runs = await getEngine().listRuns({ graph, entryAgent, scheduleId, limit });
    return NextResponse.json({ runs });
  },
});

export const POST = operationRoute(startRunOperation, { status: 201, respond: ({ runId }) => ({ runId }), maxBodyBytes: UPLOAD_MAX_BODY_BYTES });
