// Approval notifications: each request, endorsement, decision and expiry is
// posted as JSON to the configured webhook, signed with HMAC-SHA256 over a
// timestamp and the body (x-zap-timestamp, x-zap-signature: v1=...) so the
// receiver can check it came from us and refuse replays. Nothing is sent
// unsigned, redirects are refused, and the request goes through the egress
// guard (a webhook on a private host must be in ZAP_EGRESS_ALLOW_HOSTS).
// Delivery failures throw and Temporal retries them with backoff; a refused
// configuration does not retry. The body has a `text` field, so a Slack
// incoming-webhook URL works as it is; it is Slack-escaped, since a rejection's
// reason (and tool names from MCP servers) are not ours to let ping a channel.
import { Context } from "@temporalio/activity";
import { escapeSlackText } from "../../lib/text/slack";
import type { ApprovalNotification } from "../../lib/contract/workflow";
import { createSignedWebhookPost, type WebhookConfig } from "./signed-webhook";
import type { ApprovalChannel } from "./approval-email";

export { SIGNATURE_HEADER, TIMESTAMP_HEADER, signWebhook, verifyWebhookSignature } from "../../lib/net/webhook-signature";
export type { WebhookConfig } from "./signed-webhook";

function summaryText(n: ApprovalNotification): string {
  const a = n.approval;
  const what = `${a.toolName} (agent ${a.agentName}, run ${a.rootRunId})`;
  switch (n.event) {
    case "approval.requested":
      return `Approval needed: ${what}, expires ${a.expiresAt}`;
    case "approval.endorsed":
      return `Approved ${a.endorsements.length} of ${a.requiredApprovals}: ${what}`;
    case "approval.approved":
      return `Approved by ${a.decision?.decidedBy.email ?? "?"}: ${what}`;
    case "approval.rejected":
      return `Rejected by ${a.decision?.decidedBy.email ?? "?"}: ${what} (${a.decision?.reason ?? "no reason"})`;
    case "approval.expired":
      return `Expired without a decision: ${what}`;
  }
}

/**
 * channels: email (and any other) deliveries, each recording what it sent so a retry
 * sends only what failed; one failing does not stop the others, and the activity
 * then throws so Temporal retries it.
 */
export function createNotificationActivities({ webhook, channels = [] }: { webhook: WebhookConfig | null; channels?: ApprovalChannel[] }) {
  const post = webhook ? createSignedWebhookPost(webhook) : null;
  return {
    async notifyApproval(notification: ApprovalNotification): Promise<void> {
      const failures = (await Promise.allSettled(channels.map((deliver) => deliver(notification)))).filter((r) => r.status === "rejected");
      if (post) await postWebhook(post, notification);
      if (failures[0]) throw failures[0].reason;
    },
  };
}

async function postWebhook(post: ReturnType<typeof createSignedWebhookPost>, notification: ApprovalNotification): Promise<void> {
  const info = Context.current().info;
  await post({
    event: notification.event,
    // Stable across retries, so receivers can drop duplicates.
    deliveryId: `${info.workflowExecution?.workflowId ?? "run"}:${info.activityId}`,
    body: JSON.stringify({ ...notification, text: escapeSlackText(summaryText(notification)) }),
  });
}

export type NotificationActivities = ReturnType<typeof createNotificationActivities>;
