// Posts one signed JSON delivery to the configured webhook — approval
// notifications (notifications.ts) and alerts (monitors.ts) alike: HMAC-SHA256 over the timestamp and the
// body, a delivery id stable across retries, no redirects, through the egress
// guard. A refused configuration fails for good; anything else throws for a retry.
import { ApplicationFailure } from "@temporalio/activity";
import { createGuardedFetch, EgressRefusedError } from "../../lib/net/egress";
import { SIGNATURE_HEADER, signWebhook, TIMESTAMP_HEADER } from "../../lib/net/webhook-signature";

export interface WebhookConfig {
  url: string;
  secret: string | null;
  /** ZAP_EGRESS_ALLOW_HOSTS: lets the operator's own webhook live on a private host. */
  allowHosts?: string[];
}

export type SignedWebhookPost = (delivery: { event: string; deliveryId: string; body: string }) => Promise<void>;

export function createSignedWebhookPost(webhook: WebhookConfig): SignedWebhookPost {
  const guardedFetch = createGuardedFetch({ allowHosts: webhook.allowHosts ?? [], maxRedirects: 0, timeoutMs: 10_000 });
  return async ({ event, deliveryId, body }) => {
    if (!webhook.secret) throw ApplicationFailure.nonRetryable("The webhook has no ZAP_WEBHOOK_SECRET, so nothing is sent unsigned.", "WebhookUnsigned");
    // Signed at each attempt: a retry carries a fresh timestamp inside the receiver's window.
    const timestamp = Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "x-zap-event": event,
      "x-zap-delivery": deliveryId,
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
  };
}
