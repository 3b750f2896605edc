// GET /api/runs/:runId/tail?since=N&limit=&maxBytes= – one poll of the run page:
// events after sequence number N, the spans they may have changed, and the header.
import { NextResponse } from "next/server";
import { z } from "zod";
import { apiRoute, parseParam } from "@/lib/http/server/api-route";
import { runIdSchema } from "@/lib/engine/schemas";
import { runTail } from "@/lib/runs/server/runs";
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
    const runId = parseParam(runIdSchema, params.runId, "runId");
    return NextResponse.json(await runTail(runId, query.data.since, { limit: query.data.limit, maxBytes: query.data.maxBytes }));
  },
});
