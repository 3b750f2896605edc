// GET /api/runs/feed[?since=<cursor>] – the runs list, live: Server-Sent Events
// `run` (a run's row was written: a new run, its status, iteration, pending
// approvals or a new ledger event), `ready` once connected and `resync` when
// changes were skipped (reload the list). id = the change's cursor; a
// reconnecting EventSource's Last-Event-ID (or `since`) replays what changed
// after it. Every reader sees every run (the read permission). Session or API key;
// the caller is re-checked every few seconds and `end` says why their access ended.
import { apiRoute, parseQuery } from "@/lib/http/server/api-route";
import { getDb } from "@/lib/db/server/db";
import { liveFeedQuerySchema } from "@/lib/runs/live-feed";
import { feedResumeFrom, liveFeedStream } from "@/lib/runs/server/live-feed";
import { streamCaller } from "@/lib/runs/server/stream-access";

export const dynamic = "force-dynamic";

export const GET = apiRoute({
  permission: "read",
  handler: async ({ request, user }) => {
    const { since } = parseQuery(request, liveFeedQuerySchema);
    const caller = await streamCaller(request);
    const body = liveFeedStream(getDb(), { topic: "runs", since: feedResumeFrom(request.headers.get("last-event-id"), since), userId: user.id, signal: request.signal, caller });
    return new Response(body, {
      headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store, no-transform", Connection: "keep-alive", "X-Accel-Buffering": "no" },
    });
  },
});
