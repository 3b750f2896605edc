// GET /api/runs/compare/steps?run=<runId>&from=<i>&to=<j>[&version=<v>] – steps [from, to) of a run tree,
// indexed as `GET /api/runs/compare` indexes them (`a.steps`, `b.steps`): the compare answer carries only
// the steps around the first divergence and the page reads the others here as they scroll into view.
// At most 500 steps per call. Unknown run → 404; `version` given and the run has taken steps since → 409;
// a bad range, an unknown parameter or a tree over MAX_COMPARED_ROWS → 422. Any role (permission read); 300 pages
// a minute per user or API key, then 429 with Retry-After. A finished run tree's steps are built once and cached
// (lib/runs/server/cached-compare.ts), read only after the session check.
import { NextResponse } from "next/server";
import { apiRoute, parseQuery } from "@/lib/http/server/api-route";
import { getDb } from "@/lib/db/server/db";
import { loadPriceBook } from "@/lib/pricing/server/price-book";
import { cachedCompareSteps } from "@/lib/runs/server/cached-compare";
import { compareStepsQuerySchema } from "@/lib/runs/diff/schemas";
import { limitExpensiveRead } from "@/lib/http/server/read-limits";

export const GET = apiRoute({
  permission: "read",
  handler: async ({ request, user }) => {
    const query = parseQuery(request, compareStepsQuerySchema);
    await limitExpensiveRead(user, "runs.compare_steps");
    return NextResponse.json(await cachedCompareSteps(getDb(), query, await loadPriceBook()), { headers: { "Cache-Control": "no-store" } });
  },
});
