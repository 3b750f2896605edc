// Slack's request signing, as Slack documents it
// (https://api.slack.com/authentication/verifying-requests-from-slack):
//   X-Slack-Request-Timestamp: <unix seconds>
//   X-Slack-Signature: v0=<hex HMAC-SHA256(signing secret, "v0:<timestamp>:<raw body>")>
// A request more than five minutes from our clock is refused (no replay of a
// captured click), and the comparison is constant-time.
import { createHmac, timingSafeEqual } from "node:crypto";

export const SLACK_SIGNATURE_HEADER = "x-slack-signature";
export const SLACK_TIMESTAMP_HEADER = "x-slack-request-timestamp";
export const SLACK_TOLERANCE_SECONDS = 300;

/** `v0=` and the hex HMAC Slack sends for this body at this timestamp. */
export function slackSignature(signingSecret: string, timestamp: number | string, body: string): string {
  return `v0=${createHmac("sha256", signingSecret).update(`v0:${timestamp}:${body}`, "utf8").digest("hex")}`;
}

/** Why the request is not Slack's within the window, or null when it is; the reason names no secret. */
export function slackSignatureProblem(
  { signingSecret, body, timestamp, signature }: { signingSecret: string; body: string; timestamp: string | null; signature: string | null },
  nowSeconds = Math.floor(Date.now() / 1000),
): string | null {
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return `missing or malformed ${SLACK_TIMESTAMP_HEADER}`;
  if (!signature || !/^v0=[0-9a-f]{64}$/.test(signature)) return `missing or malformed ${SLACK_SIGNATURE_HEADER}`;
  if (Math.abs(nowSeconds - Number(timestamp)) > SLACK_TOLERANCE_SECONDS) return `the request is more than ${SLACK_TOLERANCE_SECONDS} s from the server's clock`;
  const expected = Buffer.from(slackSignature(signingSecret, timestamp, body), "utf8");
  const given = Buffer.from(signature, "utf8");
  return expected.length === given.length && timingSafeEqual(expected, given) ? null : "the signature does not match";
}
