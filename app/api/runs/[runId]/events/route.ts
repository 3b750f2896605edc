// GET /api/runs/:runId/events?since=N&limit=&maxBytes= – events after sequence
// number N, read from the run ledger: paged by count and by bytes, so any run
// can be read, live or finished, whatever its size.
import { NextResponse } from "next/server";
import { z } from "zod";
import { apiRoute, parseParam } from "@/lib/http/server/api-route";
import { getEngine } from "@/lib/engine/server/engine";
import { runIdSchema } from "@/lib/engine/schemas";
import { ValidationError, zodIssues } from "@/lib/errors";

const querySchema = z.object({
  since: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(2000).default(500),
  maxBytes: z.coerce.number().int().min(1024).max(4_000_000).default(1_000_000),
});

export const GET = apiRoute<{ runId: string }>({
  permission: "read",
  handler: async ({ request, params }) => {
    const query = querySchema.safeParse(Object.fromEntries(request.nextUrl.searchParams));
    if (!query.success) throw new ValidationError(zodIssues(query.error.issues));
    const { since, limit, maxBytes } = query.data;
    const page = await getEngine().getEventPage(parseParam(runIdSchema, params.runId, "runId"), since, { limit, maxBytes });
    return NextResponse.json(page);
  },
});
