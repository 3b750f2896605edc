// GET /api/runs/:runId/tail?since=N&limit=&maxBytes= – one poll of the run page:
// events after sequence number N, the spans they may have changed, and the header.
import { NextResponse } from "next/server";
import { apiRoute, parseParam, parseQuery } from "@/lib/http/server/api-route";
import { eventPageQuerySchema, runIdSchema } from "@/lib/contract/schemas";
import { runTail } from "@/lib/runs/server/runs";

export const GET = apiRoute<{ runId: string }>({
  permission: "read",
  handler: async ({ request, params }) => {
    const { since, limit, maxBytes } = parseQuery(request, eventPageQuerySchema);
    return NextResponse.json(await runTail(parseParam(runIdSchema, params.runId, "runId"), since, { limit, maxBytes }));
  },
});
