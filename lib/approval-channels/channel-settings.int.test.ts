// Approval channels set by an admin in the product (issue 39 §2), on SQLite and
// PostgreSQL: the three doors (the page's server actions, /api/approval-channels
// and the TypeScript client) answer and audit alike; secrets are sealed in the
// row and answered only as "set"; a variable set in the environment wins over
// its field (read-only, an update of it refused); and a real run's approval is
// emailed (a real SMTP server) and posted to Slack (a local receiver) with the
// stored settings, no restart, while Slack's signed clicks are checked with the
// stored signing secret. Role refusals: channel-settings.security.test.ts.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { testProviders } from "../../scripts/test-support/databases";
import { eventually, singleAgentGraph, startEngineHarness, TEST_AUTH_SECRET, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { doors } from "../../scripts/test-support/parity-doors";
import { actionOutcome, apiRequest, audited, expectSameRefusal, params, routeOutcome, type Outcome } from "../../scripts/test-support/parity";
import { startSmtpReceiver, type SmtpReceiver } from "../../scripts/test-support/smtp-receiver";
import { slackClick, startSlackReceiver, type SlackReceiver } from "../../scripts/test-support/slack-receiver";
import { parseEnv } from "../config/env";
import { ApiError, ZapClient } from "../client/zap-client";
import { slackSignature } from "./slack-signature";
import { effectiveApprovalChannels, readEffectiveApprovalChannels } from "./server/effective";
import { resealApprovalChannelSecrets } from "./server/reseal";

vi.mock("@/lib/auth/server/auth", async () => (await import("../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/engine/server/engine", async () => (await import("../../scripts/test-support/parity-doors")).engineModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../scripts/test-support/parity-doors")).configModule);
vi.mock("next/cache", async () => (await import("../../scripts/test-support/parity-doors")).cacheModule);

const channelsRoute = await import("@/app/api/approval-channels/route");
const testRoute = await import("@/app/api/approval-channels/test/route");
const interactions = await import("@/app/api/slack/interactions/route");
const { updateApprovalChannelsAction } = await import("../actions/update-approval-channels");
const { sendApprovalChannelTestAction } = await import("../actions/send-approval-channel-test");
const { readApprovalChannels } = await import("./server/settings");

/** The client, its requests answered in-process by the routes as the signed-in user. */
const client = new ZapClient({
  baseUrl: "http://127.0.0.1",
  apiKey: "zap_in-process-test-key-0123456789",
  fetch: async (input, init) => {
    const url = new URL(String(input));
    const request = apiRequest(init?.method ?? "GET", url.pathname, init?.body ? JSON.parse(String(init.body)) : undefined);
    if (url.pathname.endsWith("/test")) return testRoute.POST(request, params({}));
    return request.method === "PATCH" ? channelsRoute.PATCH(request, params({})) : channelsRoute.GET(request, params({}));
  },
});

/** A client call as an Outcome, like the other doors. */
async function clientOutcome(call: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, data: await call() };
  } catch (error) {
    if (!(error instanceof ApiError) || !error.code) throw error;
    return { ok: false, status: error.status, error: { code: error.code, message: error.message, ...(error.issues.length ? { issues: error.issues } : {}) } };
  }
}

const SIGNING_SECRET = "db-signing-secret-0123456789";
const BOT_TOKEN = "xoxb-db-bot-token-9876";
const SMTP_PASSWORD = "db-smtp-password-4321";
const SECRETS = [SIGNING_SECRET, BOT_TOKEN, SMTP_PASSWORD];
const providers = await testProviders();

describe.each(providers)("approval channels set in the product on $provider", ({ available, create }) => {
  let h: EngineHarness;
  let smtp: SmtpReceiver;
  let slack: SlackReceiver;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    if (!available) return;
    smtp = await startSmtpReceiver();
    slack = await startSlackReceiver();
    // No channel variable set: everything comes from the settings; the loopback receiver is a listed host.
    // (No AUTH_URL: the routes accept requests from the address apiRequest sends as Origin.)
    h = await startEngineHarness({ database: await create(), env: { ZAP_EGRESS_ALLOW_HOSTS: slack.host } });
    doors.db = h.db;
    doors.engine = h.engine;
    doors.config = h.config;
    for (const role of ["admin", "builder"]) ids[role] = (await h.db.user.findUniqueOrThrow({ where: { email: `${role}@zap.local` } })).id;
  });
  afterAll(async () => {
    if (!available) return;
    await h?.stop();
    await smtp?.close();
    await slack?.close();
  });

  const bind = () => {
    doors.db = h.db;
    doors.engine = h.engine;
    doors.config = h.config;
    doors.userId = ids.admin ?? null;
  };
  const expectNoSecret = (what: string, value: unknown) => {
    const text = JSON.stringify(value);
    for (const secret of SECRETS) expect(text.includes(secret), `${what} holds no secret`).toBe(false);
  };

  it.skipIf(!available)("an admin sets them through each door alike; the secrets are sealed in the row and never answered", async () => {
    bind();
    const change = (door: string) => ({ slackBotToken: `${BOT_TOKEN}-${door}-0000`, slackChannel: `C${door.toUpperCase()}` });
    const byAction = await audited(h.db, async () => actionOutcome(await updateApprovalChannelsAction(change("action"))));
    const byRoute = await audited(h.db, async () => routeOutcome(await channelsRoute.PATCH(apiRequest("PATCH", "/api/approval-channels", change("route")), params({}))));
    const byClient = await audited(h.db, () => clientOutcome(() => client.updateApprovalChannels(change("client"))));
    const blank = (o: unknown) => JSON.parse(JSON.stringify(o), (key: string, value: unknown) => (key === "updatedAt" || (key === "value" && typeof value === "string" && /^C[A-Z]+$/.test(value)) ? "<differs>" : value));
    expect(blank(byRoute)).toEqual(blank(byAction));
    expect(blank(byClient)).toEqual(blank(byAction));
    expect(byAction.audit).toEqual([{ action: "approval_channels.updated", actorId: ids.admin, target: "approval-channels" }]);
    expect(byAction.outcome).toMatchObject({ ok: true, data: { changed: ["slackBotToken", "slackChannel"], settings: { fields: { slackBotToken: { source: "settings", set: true, last4: "0000" } } } } });

    // The same refusal whichever door: a bad value and an unknown key, named, nothing written or audited.
    const bad = { smtpUrl: "http://mail.example.com", slackChannelId: "C1" };
    const refusedRoute = await audited(h.db, async () => routeOutcome(await channelsRoute.PATCH(apiRequest("PATCH", "/api/approval-channels", bad), params({}))));
    const refusedAction = await audited(h.db, async () => actionOutcome(await updateApprovalChannelsAction(bad)));
    const refusedClient = await audited(h.db, () => clientOutcome(() => client.updateApprovalChannels(bad as never)));
    expectSameRefusal(refusedRoute.outcome, refusedAction.outcome, "a bad update");
    expect(refusedClient.outcome).toEqual(refusedRoute.outcome);
    expect(refusedRoute.outcome).toMatchObject({ status: 422, error: { issues: expect.arrayContaining([{ path: "smtpUrl", message: "expected an smtp:// or smtps:// URL, e.g. smtp://user@mail.example.com:587" }]) } });
    expect(JSON.stringify(refusedRoute.outcome), "the unknown key is named").toContain("slackChannelId");
    expect([...refusedRoute.audit, ...refusedAction.audit, ...refusedClient.audit], "nothing audited").toEqual([]);

    // Every setting at once; then read back through each door, alike, and with no secret anywhere.
    const all = await client.updateApprovalChannels({
      smtpUrl: smtp.url,
      smtpPassword: SMTP_PASSWORD,
      smtpFrom: "zap@zap.test",
      slackSigningSecret: SIGNING_SECRET,
      slackBotToken: BOT_TOKEN,
      slackChannel: "C0SETTINGS",
      slackApiUrl: slack.apiUrl,
    });
    expect(all.changed.sort()).toEqual(["slackApiUrl", "slackBotToken", "slackChannel", "slackSigningSecret", "smtpFrom", "smtpPassword", "smtpUrl"]);
    const byGet = await routeOutcome(await channelsRoute.GET(apiRequest("GET", "/api/approval-channels"), params({})));
    expect(byGet).toEqual({ ok: true, data: await client.getApprovalChannels() });
    expect(byGet).toEqual({ ok: true, data: await readApprovalChannels() });
    expect(byGet).toMatchObject({ ok: true, data: {
      fields: {
        smtpUrl: { source: "settings", value: smtp.url },
        smtpPassword: { source: "settings", set: true, last4: null },
        slackSigningSecret: { source: "settings", set: true, last4: "6789" },
        slackBotToken: { source: "settings", set: true, last4: "9876" },
        slackApiUrl: { source: "settings", value: slack.apiUrl },
      },
      email: { active: true, missing: [] },
      slack: { active: true, missing: [] },
      updatedBy: "admin@zap.local",
    } });

    // At rest: each secret is a sealed value; no column, no audit row holds one.
    const [row] = await h.db.$queryRawUnsafe<Record<string, unknown>[]>('SELECT * FROM "approval_channel_settings"');
    expectNoSecret("the raw row", row);
    for (const column of ["smtp_password", "slack_signing_secret", "slack_bot_token"]) expect(String(row?.[column]), column).toMatch(/^v[12]\./);
    const audits = await h.db.auditEvent.findMany({ where: { action: "approval_channels.updated" } });
    expectNoSecret("the audit rows", audits);
    expect(JSON.parse(audits.at(-1)?.details ?? "{}")).toMatchObject({ values: { smtpPassword: "set", slackBotToken: "set", smtpFrom: "zap@zap.test" } });
    expectNoSecret("every answer", [byAction, byRoute, byClient, byGet, all]);

    // A secret is cleared only by saying so (null); the test receiver takes mail without a password.
    const cleared = await client.updateApprovalChannels({ smtpPassword: null });
    expect(cleared.changed).toEqual(["smtpPassword"]);
    expect(cleared.settings.fields.smtpPassword).toEqual({ source: null, set: false, last4: null });
    expect(JSON.parse((await h.db.auditEvent.findFirstOrThrow({ where: { action: "approval_channels.updated" }, orderBy: { seq: "desc" } })).details)).toEqual({ changed: ["smtpPassword"], values: { smtpPassword: "cleared" } });
  });

  it.skipIf(!available)("a run's approval is emailed and posted to Slack with the stored settings, no restart; clicks are checked with the stored secret", async () => {
    bind();
    const graph = singleAgentGraph({ tools: ["ledger_transfer"], approvalRules: [{ pattern: "ledger_transfer", requiredRole: "approver", expiresInSeconds: 600 }] });
    const { runId } = await h.engine.startRun({ graph, task: 'tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":5}\nanswer: done', startedBy: { id: ids.builder ?? "", email: "builder@zap.local" } });
    await waitForStatus(h.engine, runId, ["awaiting_approval"]);
    const [approval] = await h.engine.getPendingApprovals(runId);
    if (!approval) throw new Error("expected a pending approval");
    const [mail] = await eventually(async () => smtp.mails.filter((m) => m.headers.get("x-zap-approval") === approval.id), (m) => m.length >= 1, 20_000, "the request email");
    expect(mail?.from, "the stored sender").toBe("zap@zap.test");
    const [post] = await eventually(async () => slack.calls.filter((c) => c.method === "chat.postMessage" && JSON.stringify(c.body).includes(approval.id)), (c) => c.length >= 1, 20_000, "the Slack post");
    expect(post?.authorization, "the stored bot token, opened").toBe(`Bearer ${BOT_TOKEN}`);
    expect(post?.body.channel).toBe("C0SETTINGS");

    // Slack's click is checked with the stored signing secret: signed with it, it passes the check (an unlinked member is told privately); signed otherwise, 401.
    const body = slackClick({ slackUserId: "UNOBODY01", action: "zap_approve", value: JSON.stringify({ runId, approvalId: approval.id }) });
    const click = (secret: string) => {
      const timestamp = Math.floor(Date.now() / 1000);
      return new NextRequest("http://127.0.0.1/api/slack/interactions", {
        method: "POST",
        body,
        headers: { "content-type": "application/x-www-form-urlencoded", "x-slack-request-timestamp": String(timestamp), "x-slack-signature": slackSignature(secret, timestamp, body) },
      });
    };
    expect((await interactions.POST(click("an-old-secret-from-elsewhere"))).status).toBe(401);
    expect((await interactions.POST(click(SIGNING_SECRET))).status).toBe(200);
    expect((await h.db.approvalRecord.findUniqueOrThrow({ where: { id: approval.id } })).status, "an unlinked member decided nothing").toBe("pending");
    await h.engine.cancelRun(runId);
  });

  it.skipIf(!available)("sends a test through each channel, and says why one did not go out without a secret; the Slack URL passes the egress guard", async () => {
    bind();
    const email = actionOutcome(await sendApprovalChannelTestAction({ channel: "email", to: "ops@zap.test" }));
    expect(email).toEqual({ ok: true, data: { channel: "email", to: "ops@zap.test" } });
    const test = await eventually(async () => smtp.mails.filter((m) => m.subject === "Zap Studio: test of approval emails"), (m) => m.length >= 1, 10_000, "the test email");
    expect(test[0]?.to).toEqual(["ops@zap.test"]);
    expect(await clientOutcome(() => client.sendApprovalChannelTest({ channel: "slack" }))).toEqual({ ok: true, data: { channel: "slack", to: "C0SETTINGS" } });
    const posted = slack.calls.filter((c) => c.method === "chat.postMessage" && String(c.body.text).startsWith("A test of Zap Studio's approval messages in Slack, sent by admin@zap.local"));
    expect(posted.map((c) => [c.body.channel, c.authorization])).toEqual([["C0SETTINGS", `Bearer ${BOT_TOKEN}`]]);

    // A Slack URL on a private address the operator did not list is refused before connecting, with the guard's reason.
    await client.updateApprovalChannels({ slackApiUrl: "http://10.255.255.1/api" });
    const refused = await routeOutcome(await testRoute.POST(apiRequest("POST", "/api/approval-channels/test", { channel: "slack" }), params({})));
    expect(refused).toMatchObject({ ok: false, status: 503, error: { code: "unavailable", message: expect.stringMatching(/^The test message did not reach Slack: Slack chat\.postMessage refused by the egress guard/) } });
    expectNoSecret("the refusal", refused);
    const tested = await h.db.auditEvent.findMany({ where: { action: "approval_channels.tested" }, orderBy: { seq: "asc" } });
    expect(tested.map((r) => [r.target, JSON.parse(r.details).ok])).toEqual([
      ["email", true],
      ["slack", true],
      ["slack", false],
    ]);
    expectNoSecret("the test audit rows", tested);
  });

  it.skipIf(!available)("a variable set in the environment wins: its field is read-only, an update of it is refused, the rest still applies", async () => {
    bind();
    const envConfig = parseEnv({ AUTH_SECRET: TEST_AUTH_SECRET, DATABASE_URL: h.config.databaseUrl, ZAP_SLACK_CHANNEL: "CFROMENV", ZAP_SLACK_SIGNING_SECRET: "env-signing-secret-000000", ZAP_SLACK_BOT_TOKEN: "xoxb-env-token", ZAP_EGRESS_ALLOW_HOSTS: slack.host });
    doors.config = envConfig;
    const view = await client.getApprovalChannels();
    expect(view.fields.slackChannel).toEqual({ source: "env", value: "CFROMENV" });
    expect(view.fields.slackBotToken).toEqual({ source: "env", set: true, last4: null });
    expect(view.fields.smtpFrom, "a field no variable sets stays the admin's").toEqual({ source: "settings", value: "zap@zap.test" });
    const refused = await audited(h.db, () => clientOutcome(() => client.updateApprovalChannels({ slackChannel: "COTHER", smtpFrom: "other@zap.test" })));
    expect(refused.outcome).toEqual({
      ok: false,
      status: 422,
      error: { code: "validation_failed", message: "Some fields are set by the environment", issues: [{ path: "slackChannel", message: "set by the environment (ZAP_SLACK_CHANNEL), which wins over this page: change it there" }] },
    });
    expect(refused.audit).toEqual([]);
    expect((await readApprovalChannels(h.db, h.config)).fields.smtpFrom.value, "nothing of the refused update was written").toBe("zap@zap.test");
    // The Slack channel in effect is the environment's, whatever the row says.
    expect((await effectiveApprovalChannels(h.db, envConfig)).slack).toMatchObject({ channel: "CFROMENV", botToken: "xoxb-env-token", apiUrl: "http://10.255.255.1/api" });
    doors.config = h.config;
  });

  // Last: the rows are sealed with a key the harness's configuration does not hold afterwards.
  it.skipIf(!available)("a key rotation re-seals the stored secrets with the new first key, and they still open", async () => {
    const rotated = parseEnv({ AUTH_SECRET: TEST_AUTH_SECRET, DATABASE_URL: h.config.databaseUrl, ZAP_ENCRYPTION_KEYS: `next:${randomBytes(32).toString("base64")}` });
    expect(await resealApprovalChannelSecrets(h.db, rotated)).toEqual({ keyId: "next", resealed: 2, current: 0 });
    const [row] = await h.db.$queryRawUnsafe<Record<string, unknown>[]>('SELECT * FROM "approval_channel_settings"');
    expect([row?.slack_signing_secret, row?.slack_bot_token].map((v) => String(v).slice(0, 8))).toEqual(["v2.next.", "v2.next."]);
    expect((await readEffectiveApprovalChannels(h.db, rotated)).slack).toMatchObject({ signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN });
    expect(await resealApprovalChannelSecrets(h.db, rotated), "idempotent").toEqual({ keyId: "next", resealed: 0, current: 2 });
  });
});
