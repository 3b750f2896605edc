// GET /api/runs/:runId/messages?from=N – the conversation from message N on (the ledger's copy).
// POST /api/runs/:runId/messages – a follow-up message: { content } → 202 (sendFollowUp, as the run page's action).
import { NextResponse } from "next/server";
import { apiRoute, parseJsonBody, parseParam } from "@/lib/http/server/api-route";
import { sendFollowUp } from "@/lib/runs/server/run-operations";
import { runIdSchema } from "@/lib/engine/schemas";
import { followUpBodySchema } from "@/lib/runs/schemas";
import { runMessages } from "@/lib/runs/server/runs";
import { z } from "zod";

export const GET = apiRoute<{ runId: string }>({
  permission: "read",
  handler: async ({ request, params }) => {
    const runId = parseParam(runIdSchema, params.runId, "runId");
    const from = parseParam(z.coerce.number().int().min(0).default(0), request.nextUrl.searchParams.get("from") ?? undefined, "from");
    return NextResponse.json({ messages: await runMessages(runId, from) });
  },
});

export const POST = apiRoute<{ runId: string }>({
  permission: "runs:launch",
  handler: async ({ request, params, user }) => {
    const runId = parseParam(runIdSchema, params.runId, "runId");
    const body = await parseJsonBody(request, followUpBodySchema);
    return NextResponse.json(await sendFollowUp(runId, body.content, user), { status: 202 });
  },
});
