// GET /api/runs/:runId/messages?from=N – the conversation from message N on (the ledger's copy).
// POST /api/runs/:runId/messages – a follow-up message: { content, images? } → 202 (the run page's operation;
//   images as in POST /api/runs, the body holding at most one 10 MB image as base64); 409 with the reason when
//   the run is working and its graph takes no message meanwhile (limits.followUps "reject", docs/engine.md).
import { NextResponse } from "next/server";
import { apiRoute, parseParam } from "@/lib/http/server/api-route";
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { followUpOperation } from "@/lib/runs/server/run-operations";
import { runIdSchema } from "@/lib/contract/schemas";
import { runMessages } from "@/lib/runs/server/runs";
import { z } from "zod";
import { UPLOAD_MAX_BODY_BYTES } from "@/lib/attachments/schemas";

export const GET = apiRoute<{ runId: string }>({
  permission: "read",
  handler: async ({ request, params }) => {
    const runId = parseParam(runIdSchema, params.runId, "runId");
    const from = parseParam(z.coerce.number().int().min(0).default(0), request.nextUrl.searchParams.get("from") ?? undefined, "from");
    return NextResponse.json({ messages: await runMessages(runId, from) });
  },
});

export const POST = operationRoute(followUpOperation, { path: (params: { runId: string }) => ({ runId: params.runId }), status: 202, maxBodyBytes: UPLOAD_MAX_BODY_BYTES });
