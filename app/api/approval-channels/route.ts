// GET /api/approval-channels – admins: the approval channels' settings { fields: { smtpUrl, smtpPassword, smtpFrom,
//   emailTo, slackSigningSecret, slackBotToken, slackChannel, slackApiUrl }, email: { active, missing }, slack: { … },
//   updatedAt, updatedBy }. Each field says its source (env | settings | default | null); a secret says only whether
//   it is set (a Slack secret's last four characters at most), never its value.
// PATCH /api/approval-channels – admins: { smtpUrl?, smtpPassword?, smtpFrom?, emailTo?, slackSigningSecret?,
//   slackBotToken?, slackChannel?, slackApiUrl? } (absent: kept; null: cleared) → { changed, settings }. 422 naming
//   the field (unknown keys, bad values, a field its environment variable sets); 403 for any other role.
//   Audited as approval_channels.updated with the fields changed. See docs/approvals-channels.md.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { readApprovalChannelsOperation, updateApprovalChannelsOperation } from "@/lib/approval-channels/server/settings";

export const GET = operationRoute(readApprovalChannelsOperation, { body: false, headers: { "Cache-Control": "no-store" } });

export const PATCH = operationRoute(updateApprovalChannelsOperation, { headers: { "Cache-Control": "no-store" } });
