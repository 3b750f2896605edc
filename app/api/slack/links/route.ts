// GET /api/slack/links – admins: every Slack user link { links: [{ slackUserId, userId, email, role, createdAt }] }.
// POST /api/slack/links – admins: { slackUserId, email } links a Slack member to the Zap user with that email
//   (moving an existing link); 404 no such user, 422 naming the field. Audited as slack.user_linked.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { linkSlackUserOperation, listSlackLinksOperation } from "@/lib/approval-channels/server/slack-links";

export const GET = operationRoute(listSlackLinksOperation, { body: false, headers: { "Cache-Control": "no-store" } });

export const POST = operationRoute(linkSlackUserOperation);
