// DELETE /api/slack/links/:slackUserId – admins: the Slack member decides nothing in Slack from now on;
//   404 when not linked. Audited as slack.user_unlinked.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { unlinkSlackUserOperation } from "@/lib/approval-channels/server/slack-links";

export const DELETE = operationRoute(unlinkSlackUserOperation, { body: false, path: (params: { slackUserId: string }) => ({ slackUserId: params.slackUserId }) });
