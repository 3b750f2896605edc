// Issue 39 §2: only admins read or change the approval channels' settings or
// send a test through them. Through the real routes with real API keys: a
// builder's, an approver's and a viewer's key, and an admin's key made with the
// viewer role, are refused (403) reading, changing and testing, and nothing is
// written or audited. An admin's key is the control; what it sets never comes
// back in any answer, a refusal of a bad secret included.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { errorOf, keyRequest, routeParams, startApiCallers, type ApiCallers, type KeyHolder } from "@/scripts/test-support/api-callers";
import { createApiKey } from "@/lib/api-keys/server/api-keys";

vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, has: () => false, delete: () => undefined }),
}));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

const SIGNING_SECRET = "guarded-signing-secret-0123456789";
const BOT_TOKEN = "xoxb-guarded-bot-token-abcdef";
const SMTP_PASSWORD = "guarded-smtp-password";

let callers: ApiCallers;
let channelsRoute: typeof import("@/app/api/approval-channels/route");
let testRoute: typeof import("@/app/api/approval-channels/test/route");
let admin: KeyHolder;
const others: { who: string; token: string }[] = [];

beforeAll(async () => {
  callers = await startApiCallers();
  channelsRoute = await import("@/app/api/approval-channels/route");
  testRoute = await import("@/app/api/approval-channels/test/route");
  admin = await callers.holder("admin");
  for (const role of ["builder", "approver", "viewer"] as const) others.push({ who: `a ${role}'s key`, token: (await callers.holder(role)).token });
  const capped = await createApiKey({ id: admin.id, role: "admin" }, { name: "read-only", role: "viewer" }, callers.db);
  others.push({ who: "an admin's viewer-role key", token: capped.token });
  // The admin's settings: secrets set, the Slack channel not (so a test never leaves this machine).
  const set = await channelsRoute.PATCH(keyRequest(admin.token, "/api/approval-channels", { method: "PATCH", body: { smtpUrl: "smtp://approvals@127.0.0.1:1", smtpPassword: SMTP_PASSWORD, slackSigningSecret: SIGNING_SECRET, slackBotToken: BOT_TOKEN } }), routeParams({}));
  expect(set.status, await set.clone().text()).toBe(200);
});
afterAll(async () => callers?.stop());

const settingsRow = () => callers.db.approvalChannelSettings.findMany();
const channelAudits = () => callers.db.auditEvent.count({ where: { action: { in: ["approval_channels.updated", "approval_channels.tested"] } } });
const noSecretIn = (what: string, text: string) => {
  for (const secret of [SIGNING_SECRET, BOT_TOKEN, SMTP_PASSWORD]) expect(text.includes(secret), `${what} holds no secret`).toBe(false);
};

describe("who may read, change and test the approval channels", () => {
  it("refuses every non-admin key, reading included, writing and auditing nothing", async () => {
    const rows = await settingsRow();
    const audits = await channelAudits();
    for (const { who, token } of others) {
      const read = await channelsRoute.GET(keyRequest(token, "/api/approval-channels"), routeParams({}));
      expect(read.status, `${who} reads the settings`).toBe(403);
      noSecretIn(`${who}'s refused read`, await read.text());
      // Point approvals at a mail server and Slack app of the caller's choosing.
      const change = await channelsRoute.PATCH(keyRequest(token, "/api/approval-channels", { method: "PATCH", body: { smtpUrl: "smtp://evil.example.com", slackBotToken: "xoxb-attacker-token" } }), routeParams({}));
      expect(change.status, `${who} changes the settings`).toBe(403);
      expect((await errorOf(change)).code).toBe("forbidden");
      const test = await testRoute.POST(keyRequest(token, "/api/approval-channels/test", { method: "POST", body: { channel: "email", to: "x@example.com" } }), routeParams({}));
      expect(test.status, `${who} sends a test`).toBe(403);
    }
    expect(await settingsRow(), "nothing changed").toEqual(rows);
    expect(await channelAudits(), "nothing audited").toBe(audits);
  });

  it("answers an admin's key without a secret, in reads, changes, refusals and tests (the control)", async () => {
    const read = await channelsRoute.GET(keyRequest(admin.token, "/api/approval-channels"), routeParams({}));
    expect(read.status).toBe(200);
    const text = await read.text();
    noSecretIn("the read", text);
    expect(JSON.parse(text)).toMatchObject({ fields: { smtpPassword: { set: true, last4: null }, slackBotToken: { set: true, last4: "cdef" }, slackSigningSecret: { set: true } } });

    const change = await channelsRoute.PATCH(keyRequest(admin.token, "/api/approval-channels", { method: "PATCH", body: { slackBotToken: `${BOT_TOKEN}-2` } }), routeParams({}));
    expect(change.status).toBe(200);
    noSecretIn("the change's answer", await change.text());

    // A bad secret is refused naming the field, never echoing what was sent.
    const short = "xoxb";
    const refused = await channelsRoute.PATCH(keyRequest(admin.token, "/api/approval-channels", { method: "PATCH", body: { slackSigningSecret: "tiny-secret", slackBotToken: short } }), routeParams({}));
    expect(refused.status).toBe(422);
    const error = await errorOf(refused);
    expect(error.issues).toEqual([
      { path: "slackSigningSecret", message: "must be at least 16 characters (the Slack app's signing secret)" },
      { path: "slackBotToken", message: "must be at least 8 characters (a bot token, xoxb-…)" },
    ]);
    expect(JSON.stringify(error)).not.toContain("tiny-secret");

    // The Slack channel is not set: the test says what is missing (the admin got past the role check).
    const test = await testRoute.POST(keyRequest(admin.token, "/api/approval-channels/test", { method: "POST", body: { channel: "slack" } }), routeParams({}));
    expect(test.status).toBe(409);
    expect((await errorOf(test)).message).toBe("Slack is not configured: set the channel first");
    // Email is configured but its server does not answer: the reason, without the password in the URL.
    const email = await testRoute.POST(keyRequest(admin.token, "/api/approval-channels/test", { method: "POST", body: { channel: "email", to: "ops@example.com" } }), routeParams({}));
    expect(email.status).toBe(409);
    expect((await errorOf(email)).message).toBe("Email is not configured: set the sender first");
    const withSender = await channelsRoute.PATCH(keyRequest(admin.token, "/api/approval-channels", { method: "PATCH", body: { smtpFrom: "zap@example.com" } }), routeParams({}));
    expect(withSender.status).toBe(200);
    const unreachable = await testRoute.POST(keyRequest(admin.token, "/api/approval-channels/test", { method: "POST", body: { channel: "email", to: "ops@example.com" } }), routeParams({}));
    expect(unreachable.status).toBe(503);
    const said = await errorOf(unreachable);
    expect(said.message).toMatch(/^The test email did not go out: .*ECONNREFUSED/);
    noSecretIn("the failed test", JSON.stringify(said));
    const rows = await callers.db.auditEvent.findMany({ where: { action: { in: ["approval_channels.updated", "approval_channels.tested"] } } });
    noSecretIn("the audit rows", JSON.stringify(rows));
    expect(rows.every((r) => r.actorId === admin.id)).toBe(true);
  });
});
