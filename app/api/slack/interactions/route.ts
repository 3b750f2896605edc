// POST /api/slack/interactions – a Slack app's interactivity request URL (public: no session; Slack's v0
//   request signature is the credential). A click on an approval's Approve / Reject decides it as the Zap user
//   an admin linked that Slack user to; refusals go to that Slack user alone. → 200 {}; 401 bad or stale
//   signature; 404 Slack not configured; 413 over 64 KiB; 422 not Slack's payload. See docs/approvals-channels.md.
import { errorResponse } from "@/lib/http/server/api-route";
import { getDb } from "@/lib/db/server/db";
import { getEngine } from "@/lib/engine/server/engine";
import { getConfig } from "@/lib/config/server/config";
import { handleSlackInteraction } from "@/lib/approval-channels/server/slack-interaction";
import { effectiveApprovalChannels } from "@/lib/approval-channels/server/effective";

export async function POST(request: Request): Promise<Response> {
  try {
    // The Slack app in effect: the environment's variables over the admin's settings (/admin/approval-channels).
    const { slack } = await effectiveApprovalChannels(getDb(), getConfig());
    const answer = await handleSlackInteraction({ db: getDb(), engine: getEngine(), slack }, request);
    return Response.json(answer.body, { status: answer.status, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    // An unexpected failure: the generic message, logged with its context (never a stack or a secret).
    return errorResponse(error, "POST /api/slack/interactions");
  }
}
