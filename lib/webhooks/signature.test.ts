// The signature of an inbound delivery (docs/webhooks.md): what a sender signs, and every way a request fails.
import { describe, expect, it } from "vitest";
import { newWebhookSecret, signedHeaders, signPayload, verifySignature } from "./signature";

const secret = "whsec_test-secret-of-some-length";
const body = JSON.stringify({ task: "triage issue 42" });
const now = 1_800_000_000;
const headersFor = (s: string, b: string, at = now) => signedHeaders(s, b, at);
const check = (h: Record<string, string | null>, b = body, at = now) =>
  verifySignature({ secret, body: b, timestamp: h["x-zap-timestamp"] ?? null, signature: h["x-zap-signature"] ?? null }, { nowSeconds: at, toleranceSeconds: 300 });

describe("webhook signatures", () => {
  it("accepts the body signed with the secret, now and at the edges of the window", () => {
    expect(check(headersFor(secret, body))).toEqual({ ok: true });
    expect(check(headersFor(secret, body, now - 300)), "300 s old").toEqual({ ok: true });
    expect(check(headersFor(secret, body, now + 300)), "300 s ahead").toEqual({ ok: true });
  });

  it("signs `<timestamp>.<body>` with HMAC-SHA256 as hex (what the docs' curl example computes)", () => {
    expect(signPayload("key", 1, "{}"), "HMAC-SHA256(key, \"1.{}\")").toBe("1ba6b8171186efc613e8bcc0cbdab2748f24984d7c5a84faa2637afa0e40d224");
    expect(signPayload(secret, now, body)).toMatch(/^[0-9a-f]{64}$/);
    expect(headersFor(secret, body)["x-zap-signature"]).toBe(`v1=${signPayload(secret, now, body)}`);
  });

  it("refuses a tampered body, a wrong secret, and a timestamp changed after signing", () => {
    expect(check(headersFor(secret, body), body.replace("42", "43"))).toEqual({ ok: false, reason: "the signature does not match the body and timestamp" });
    expect(check(headersFor("whsec_another-secret", body))).toMatchObject({ ok: false, reason: "the signature does not match the body and timestamp" });
    const moved = { ...headersFor(secret, body), "x-zap-timestamp": String(now + 1) };
    expect(check(moved), "the timestamp is part of what is signed").toMatchObject({ ok: false });
  });

  it("refuses a stale or a future timestamp, saying which", () => {
    expect(check(headersFor(secret, body, now - 301))).toEqual({ ok: false, reason: "x-zap-timestamp is older than 300 s from the server's clock" });
    expect(check(headersFor(secret, body, now + 301))).toEqual({ ok: false, reason: "x-zap-timestamp is further ahead than 300 s from the server's clock" });
  });

  it("refuses missing and malformed headers", () => {
    const good = headersFor(secret, body);
    expect(check({ ...good, "x-zap-signature": null })).toEqual({ ok: false, reason: "missing x-zap-signature header" });
    expect(check({ ...good, "x-zap-timestamp": null })).toEqual({ ok: false, reason: "missing x-zap-timestamp header" });
    expect(check({ ...good, "x-zap-timestamp": "yesterday" })).toEqual({ ok: false, reason: "x-zap-timestamp is not unix seconds" });
    for (const signature of ["abc", "v1=xyz", "v0=" + "a".repeat(64), `v1=${"a".repeat(63)}`, `sha256=${signPayload(secret, now, body)}`]) {
      expect(check({ ...good, "x-zap-signature": signature }), signature).toEqual({ ok: false, reason: "x-zap-signature is malformed: expected v1=<64 hex digits>" });
    }
  });

  it("accepts any one of several v1 signatures (a sender moving to a rotated secret signs with both)", () => {
    const both = `v1=${signPayload("whsec_old", now, body)}, v1=${signPayload(secret, now, body)}`;
    expect(check({ "x-zap-timestamp": String(now), "x-zap-signature": both })).toEqual({ ok: true });
  });

  it("makes a fresh secret each time", () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newWebhookSecret()).not.toBe(a);
  });
});
