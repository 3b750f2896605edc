// GET /api/approvals/feed[?since=<cursor>] – the inbox, live: Server-Sent Events
// `approval` (an approval was asked, or decided: id, run, tool, status, who),
// `pending` (a run's count of pending approvals moved, e.g. a decision applied),
// `ready` once connected and `resync` when changes were skipped (reload).
// id = the change's cursor; Last-Event-ID (or `since`) replays what changed
// after it. Every reader sees every approval, as in the inbox. Session or API key;
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
    const body = liveFeedStream(getDb(), { topic: "approvals", since: feedResumeFrom(request.headers.get("last-event-id"), since), userId: user.id, signal: request.signal, caller });
    return new Response(body, {
      headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store, no-transform", Connection: "keep-alive", "X-Accel-Buffering": "no" },
    });
  },
});
