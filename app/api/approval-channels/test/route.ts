// POST /api/approval-channels/test – admins: { channel: "email", to } or { channel: "slack" } sends a test message
//   with the settings in effect → { channel, to }; 409 when the channel is not configured (naming what it needs),
//   503 with the mail server's or Slack's refusal (never a secret). Audited as approval_channels.tested.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { sendApprovalChannelTestOperation } from "@/lib/approval-channels/server/settings";

export const POST = operationRoute(sendApprovalChannelTestOperation, { headers: { "Cache-Control": "no-store" } });
