// GET /api/runs/:runId/events?since=N – events after sequence number N.
import { NextResponse } from "next/server";
import { z } from "zod";
import { apiRoute, parseParam } from "@/lib/http/server/api-route";
import { getEngine } from "@/lib/engine/server/engine";
import { runIdSchema } from "@/lib/engine/schemas";
import { ValidationError, zodIssues } from "@/lib/errors";

const querySchema = z.object({ since: z.coerce.number().int().min(0).default(0) });

export const GET = apiRoute<{ runId: string }>({
  permission: "read",
  handler: async ({ request, params }) => {
    const query = querySchema.safeParse(Object.fromEntries(request.nextUrl.searchParams));
    if (!query.success) throw new ValidationError(zodIssues(query.error.issues));
    return NextResponse.json({ events: await getEngine().getEvents(parseParam(runIdSchema, params.runId, "runId"), query.data.since) });
  },
});
