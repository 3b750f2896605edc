// Approval notifications: each request, endorsement, decision and expiry is
// posted as JSON to the configured webhook, signed with HMAC-SHA256 so the
// receiver can check it came from us. Failures throw, and Temporal retries
// the delivery with backoff. The body has a `text` field, so a Slack
// incoming-webhook URL works as it is.
import { createHmac } from "node:crypto";
import { Context } from "@temporalio/activity";
import type { ApprovalNotification } from "../../lib/engine/workflow-types";

export const SIGNATURE_HEADER = "x-zap-signature";

export interface WebhookConfig {
  url: string;
  secret: string | null;
}

/** `sha256=<hex>` of the exact body bytes; compare with a constant-time equality on the receiving side. */
export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
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
  return {
    async notifyApproval(notification: ApprovalNotification): Promise<void> {
      if (!webhook) return;
      const info = Context.current().info;
      const body = JSON.stringify({ ...notification, text: summaryText(notification) });
      const headers: Record<string, string> = {
        "content-type": "application/json",
        "x-zap-event": notification.event,
        // Stable across retries, so receivers can drop duplicates.
        "x-zap-delivery": `${info.workflowExecution?.workflowId ?? "run"}:${info.activityId}`,
      };
      if (webhook.secret) headers[SIGNATURE_HEADER] = signBody(body, webhook.secret);
      const response = await fetch(webhook.url, { method: "POST", headers, body, signal: AbortSignal.timeout(10_000) });
      if (!response.ok) throw new Error(`webhook answered ${response.status}`);
    },
  };
}

export type NotificationActivities = ReturnType<typeof createNotificationActivities>;
