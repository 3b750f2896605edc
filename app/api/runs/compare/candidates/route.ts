// GET /api/runs/compare/candidates?run=<runId> – the runs the run page's "Compare with…" offers: the
// run's forks and the run it was forked from, then the newest top-level runs of the same graph
// ({ graphName, related, recent }). Unknown run → 404; an unknown parameter → 422. Any role.
import { NextResponse } from "next/server";
import { apiRoute, parseQuery } from "@/lib/http/server/api-route";
import { getDb } from "@/lib/db/server/db";
import { compareCandidates } from "@/lib/runs/server/compare";
import { compareCandidatesQuerySchema } from "@/lib/runs/diff/schemas";

export const GET = apiRoute({
  permission: "read",
  handler: async ({ request }) => NextResponse.json(await compareCandidates(getDb(), parseQuery(request, compareCandidatesQuerySchema).run), { headers: { "Cache-Control": "no-store" } }),
});
