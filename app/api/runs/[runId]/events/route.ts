// GET /api/runs/:runId/events?since=N&limit=&maxBytes= – events after sequence
// number N, read from the run ledger: paged by count and by bytes, so any run
// can be read, live or finished, whatever its size.
import { NextResponse } from "next/server";
import { apiRoute, parseParam, parseQuery } from "@/lib/http/server/api-route";
import { getEngine } from "@/lib/engine/server/engine";
import { eventPageQuerySchema, runIdSchema } from "@/lib/contract/schemas";

export const GET = apiRoute<{ runId: string }>({
  permission: "read",
  handler: async ({ request, params }) => {
    const { since, limit, maxBytes } = parseQuery(request, eventPageQuerySchema);
    return NextResponse.json(await getEngine().getEventPage(parseParam(runIdSchema, params.runId, "runId"), since, { limit, maxBytes }));
  },
});
