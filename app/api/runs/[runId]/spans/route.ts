// GET /api/runs/:runId/spans?offset=&limit= – a page of a run's spans from the
// ledger in start order, as rows (lib/runs/span-rows.ts: SpanRowPage).
import { z } from "zod";
import { apiRoute, parseParam, parseQuery } from "@/lib/http/server/api-route";
import { runIdSchema } from "@/lib/contract/schemas";
import { runSpanPageJson } from "@/lib/runs/server/runs";

const querySchema = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(50_000).default(5000),
});

export const GET = apiRoute<{ runId: string }>({
  permission: "read",
  handler: async ({ request, params }) => {
    const { offset, limit } = parseQuery(request, querySchema);
    const body = await runSpanPageJson(parseParam(runIdSchema, params.runId, "runId"), offset, limit);
    // The body is already JSON (the database wrote the rows): sent as it is.
    return new Response(body, { headers: { "content-type": "application/json", "cache-control": "no-store" } });
  },
});
