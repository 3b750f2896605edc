// POST /api/runs/:runId/messages – a follow-up message: { content } → 202.
import { NextResponse } from "next/server";
import { apiRoute, parseJsonBody, parseParam } from "@/lib/http/server/api-route";
import { getEngine } from "@/lib/engine/server/engine";
import { runIdSchema, sendMessageSchema } from "@/lib/engine/schemas";

export const POST = apiRoute<{ runId: string }>({
  permission: "runs:launch",
  handler: async ({ request, params }) => {
    const body = await parseJsonBody(request, sendMessageSchema);
    await getEngine().sendMessage(parseParam(runIdSchema, params.runId, "runId"), body.content);
    return NextResponse.json({ accepted: true }, { status: 202 });
  },
});
