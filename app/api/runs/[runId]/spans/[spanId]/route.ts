// GET /api/runs/:runId/spans/:spanId – a span with what it did: model input and
// output, tool arguments and result, sub-agent turn, approval decision.
import { NextResponse } from "next/server";
import { z } from "zod";
import { apiRoute, parseParam } from "@/lib/http/server/api-route";
import { runIdSchema } from "@/lib/contract/schemas";
import { spanDetails } from "@/lib/runs/server/details";

export const GET = apiRoute<{ runId: string; spanId: string }>({
  permission: "read",
  handler: async ({ params }) =>
    NextResponse.json(await spanDetails(parseParam(runIdSchema, params.runId, "runId"), parseParam(z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/, "not a span id"), params.spanId, "spanId"))),
});
