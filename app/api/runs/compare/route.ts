// GET /api/runs/compare?a=<runId>&b=<runId> – two runs of one graph step by step: both runs' summaries
// and totals, the aligned rows (equal / changed / only in A / only in B), the first divergence, counts
// and B − A deltas (lib/runs/diff/schemas.ts RunComparison), and the steps of the rows around the first
// divergence (the others are null: ./steps reads them). Unknown run → 404 naming it; runs of different
// graphs, an unknown parameter, or runs holding more than 60,000 ledger rows together (MAX_COMPARED_ROWS) → 422.
// Any role (permission read); 30 comparisons a minute per user or API key, then 429 with Retry-After
// (lib/http/server/read-limits.ts). Finished runs' comparisons are cached (lib/runs/server/cached-compare.ts),
// read only after apiRoute has checked the session.
import { NextResponse } from "next/server";
import { apiRoute, parseQuery } from "@/lib/http/server/api-route";
import { getDb } from "@/lib/db/server/db";
import { loadPriceBook } from "@/lib/pricing/server/price-book";
import { cachedCompareRuns } from "@/lib/runs/server/cached-compare";
import { compareQuerySchema } from "@/lib/runs/diff/schemas";
import { limitExpensiveRead } from "@/lib/http/server/read-limits";

export const GET = apiRoute({
  permission: "read",
  handler: async ({ request, user }) => {
    const { a, b } = parseQuery(request, compareQuerySchema);
    await limitExpensiveRead(user, "runs.compare");
    return NextResponse.json(await cachedCompareRuns(getDb(), a, b, await loadPriceBook()), { headers: { "Cache-Control": "no-store" } });
  },
});
