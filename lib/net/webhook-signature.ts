// Webhook signatures in the Stripe/Slack style: the HMAC covers a timestamp
// and the body, so a receiver can reject a changed body and a replay of an
// old delivery (outside the tolerance window) alike.
import { createHmac, timingSafeEqual } from "node:crypto";

export const TIMESTAMP_HEADER = "x-zap-timestamp";
export const SIGNATURE_HEADER = "x-zap-signature";

/** `v1=<hex HMAC-SHA256 of "<timestamp>.<body>">`, the timestamp in unix seconds. */
export function signWebhook(body: string, timestamp: number, secret: string): string {
  return `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/**
 * For receivers: true only if `signature` (the x-zap-signature header; several
 * comma-separated `v1=` values are accepted, for key rotation) signs this exact
 * body and timestamp with `secret`, and the timestamp is within
 * `toleranceSeconds` of `now` (ms since the epoch).
 */
export function verifyWebhookSignature(
  body: string,
  timestamp: string,
  signature: string,
  secret: string,
  { toleranceSeconds = 300, now = Date.now() }: { toleranceSeconds?: number; now?: number } = {},
): boolean {
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  const seconds = Number(timestamp);
  if (Math.abs(now / 1000 - seconds) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook(body, seconds, secret));
  return signature
    .split(",")
    .map((s) => Buffer.from(s.trim()))
    .some((given) => given.length === expected.length && timingSafeEqual(given, expected));
}
