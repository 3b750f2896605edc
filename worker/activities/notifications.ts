// Approval notifications: each request, endorsement, decision and expiry is
// posted as JSON to the configured webhook, signed with HMAC-SHA256 over a
// timestamp and the body (x-zap-timestamp, x-zap-signature: v1=...) so the
// receiver can check it came from us and refuse replays. Nothing is sent
// unsigned, redirects are refused, and the request goes through the egress
// guard (a webhook on a private host must be in ZAP_EGRESS_ALLOW_HOSTS).
// Delivery failures throw and Temporal retries them with backoff; a refused
// configuration does not retry. The body has a `text` field, so a Slack
// incoming-webhook URL works as it is.
import { ApplicationFailure, Context } from "@temporalio/activity";
import type { ApprovalNotification } from "../../lib/contract/workflow";
import { createGuardedFetch, EgressRefusedError } from "../../lib/net/egress";
import { SIGNATURE_HEADER, signWebhook, TIMESTAMP_HEADER } from "../../lib/net/webhook-signature";

export { SIGNATURE_HEADER, TIMESTAMP_HEADER, signWebhook, verifyWebhookSignature } from "../../lib/net/webhook-signature";

export interface WebhookConfig {
  url: string;
  secret: string | null;
  /** ZAP_EGRESS_ALLOW_HOSTS: lets the operator's own webhook live on a private host. */
  allowHosts?: string[];
}

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

export function createNotificationActivities({ webhook }: { webhook: WebhookConfig | null }) {
  const guardedFetch = createGuardedFetch({ allowHosts: webhook?.allowHosts ?? [], maxRedirects: 0, timeoutMs: 10_000 });
  return {
    async notifyApproval(notification: ApprovalNotification): Promise<void> {
      if (!webhook) return;
      // The configuration refuses this at start-up; refuse here too rather than post unsigned.
      if (!webhook.secret) throw ApplicationFailure.nonRetryable("The webhook has no ZAP_WEBHOOK_SECRET, so nothing is sent unsigned.", "WebhookUnsigned");
      const info = Context.current().info;
      const body = JSON.stringify({ ...notification, text: summaryText(notification) });
      // Signed at each attempt: a retry carries a fresh timestamp inside the receiver's window.
      const timestamp = Math.floor(Date.now() / 1000);
      const headers: Record<string, string> = {
        "content-type": "application/json",
        "x-zap-event": notification.event,
        // Stable across retries, so receivers can drop duplicates.
        "x-zap-delivery": `${info.workflowExecution?.workflowId ?? "run"}:${info.activityId}`,
        [TIMESTAMP_HEADER]: String(timestamp),
        [SIGNATURE_HEADER]: signWebhook(body, timestamp, webhook.secret),
      };
      let response: Response;
      try {
        response = await guardedFetch(webhook.url, { method: "POST", headers, body });
      } catch (error) {
        if (error instanceof EgressRefusedError && !error.transient) throw ApplicationFailure.nonRetryable(`Webhook refused: ${error.publicMessage}`, "EgressRefused");
        throw error;
      }
      await response.body?.cancel().catch(() => undefined);
      if (!response.ok) throw new Error(`webhook answered ${response.status}`);
    },
  };
}

export type NotificationActivities = ReturnType<typeof createNotificationActivities>;
