// GET /api/runs/:runId/spans?offset=&limit= – a run's spans from the ledger in start order,
// a page at a time (`nextOffset` is null on the last page), with the cost of model calls.
import { NextResponse } from "next/server";
import { z } from "zod";
import { apiRoute, parseParam } from "@/lib/http/server/api-route";
import { runIdSchema } from "@/lib/engine/schemas";
import { runSpanPage } from "@/lib/runs/server/runs";
import { ValidationError, zodIssues } from "@/lib/errors";

const querySchema = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(50_000).default(5000),
});

export const GET = apiRoute<{ runId: string }>({
  permission: "read",
  handler: async ({ request, params }) => {
    const query = querySchema.safeParse(Object.fromEntries(request.nextUrl.searchParams));
    if (!query.success) throw new ValidationError(zodIssues(query.error.issues));
    return NextResponse.json(await runSpanPage(parseParam(runIdSchema, params.runId, "runId"), query.data.offset, query.data.limit));
  },
});
