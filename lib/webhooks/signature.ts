// The signature of an inbound webhook delivery, Stripe-style (docs/webhooks.md):
//   x-zap-timestamp: <unix seconds>
//   x-zap-signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>
// The timestamp is inside what is signed, so a captured request cannot be
// replayed outside the window; the comparison is constant-time. Several `v1=`
// values (comma-separated) are accepted so a sender can sign with two secrets.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "x-zap-signature";
export const TIMESTAMP_HEADER = "x-zap-timestamp";

/** A new signing secret: `whsec_` and 32 random bytes, base64url. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/** The hex HMAC-SHA256 a sender puts after `v1=`. */
export function signPayload(secret: string, timestamp: number | string, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex");
}

/** Both headers for a body signed now (tests, docs, a sender in Node). */
export function signedHeaders(secret: string, body: string, nowSeconds = Math.floor(Date.now() / 1000)): Record<string, string> {
  return { [TIMESTAMP_HEADER]: String(nowSeconds), [SIGNATURE_HEADER]: `v1=${signPayload(secret, nowSeconds, body)}` };
}

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/** Whether the headers sign `body` with `secret` within `toleranceSeconds` of `nowSeconds`; a refusal says why, naming no secret. */
export function verifySignature(
  { secret, body, timestamp, signature }: { secret: string; body: string; timestamp: string | null; signature: string | null },
  { nowSeconds = Math.floor(Date.now() / 1000), toleranceSeconds = 300 }: { nowSeconds?: number; toleranceSeconds?: number } = {},
): SignatureCheck {
  if (!timestamp) return { ok: false, reason: `missing ${TIMESTAMP_HEADER} header` };
  if (!signature) return { ok: false, reason: `missing ${SIGNATURE_HEADER} header` };
  if (!/^\d{1,12}$/.test(timestamp.trim())) return { ok: false, reason: `${TIMESTAMP_HEADER} is not unix seconds` };
  const sent = Number(timestamp.trim());
  if (Math.abs(nowSeconds - sent) > toleranceSeconds) {
    return { ok: false, reason: `${TIMESTAMP_HEADER} is ${sent < nowSeconds ? "older" : "further ahead"} than ${toleranceSeconds} s from the server's clock` };
  }
  const candidates = signature
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.startsWith("v1="))
    .map((part) => part.slice(3));
  if (!candidates.length || candidates.some((hex) => !/^[0-9a-f]{64}$/i.test(hex))) return { ok: false, reason: `${SIGNATURE_HEADER} is malformed: expected v1=<64 hex digits>` };
  const expected = Buffer.from(signPayload(secret, timestamp.trim(), body), "hex");
  // Every candidate is compared (no early exit), each in constant time.
  let match = false;
  for (const hex of candidates) match = timingSafeEqual(expected, Buffer.from(hex, "hex")) || match;
  return match ? { ok: true } : { ok: false, reason: "the signature does not match the body and timestamp" };
}
