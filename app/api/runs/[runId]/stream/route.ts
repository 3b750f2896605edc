// GET /api/runs/:runId/stream[?since=N] – the run's ledger events as Server-Sent
// Events (id = seq, event = type, data = the event), from the start, after
// `since`, or after the Last-Event-ID a reconnecting EventSource sends; an
// `end` event once the run is final and every event was sent, or once the caller
// may no longer read (re-checked every few seconds), naming why. Session or API key.
import { z } from "zod";
import { apiRoute, parseParam, parseQuery } from "@/lib/http/server/api-route";
import { getDb } from "@/lib/db/server/db";
import { runIdSchema } from "@/lib/contract/schemas";
import { resumeFrom, runEventStream } from "@/lib/runs/server/event-stream";
import { streamCaller } from "@/lib/runs/server/stream-access";

const streamQuerySchema = z.strictObject({ since: z.coerce.number({ error: "since must be a sequence number" }).int().min(0).default(0) });

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ runId: string }>({
  permission: "read",
  handler: async ({ request, params, user }) => {
    const runId = parseParam(runIdSchema, params.runId, "runId");
    const { since } = parseQuery(request, streamQuerySchema);
    const caller = await streamCaller(request);
    const body = await runEventStream(getDb(), { runId, since: resumeFrom(request.headers.get("last-event-id"), since), userId: user.id, signal: request.signal, caller });
    return new Response(body, {
      headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store, no-transform", Connection: "keep-alive", "X-Accel-Buffering": "no" },
    });
  },
});
