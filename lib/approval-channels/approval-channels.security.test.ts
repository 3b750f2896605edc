// Issue 39 §2's attacks on the approval channels, each a test, on a real run
// (real Temporal, real database): a Slack request that is unsigned, stale,
// forged or altered decides nothing (401); an unlinked Slack user, a linked
// viewer and a linked starter of the run (self-approval) decide nothing and
// are told so privately; an email's link decides nothing by being opened, and
// the page's door refuses a viewer and the run's own starter.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { singleAgentGraph, startEngineHarness, waitForStatus, eventually, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { doors } from "../../scripts/test-support/parity-doors";
import { SLACK_TEST_CHANNEL, slackClick, startSlackReceiver, type SlackReceiver } from "../../scripts/test-support/slack-receiver";
import { startSmtpReceiver, type SmtpReceiver } from "../../scripts/test-support/smtp-receiver";
import { slackSignature } from "./slack-signature";

vi.mock("@/lib/auth/server/auth", async () => (await import("../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/engine/server/engine", async () => (await import("../../scripts/test-support/parity-doors")).engineModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../scripts/test-support/parity-doors")).configModule);
vi.mock("next/cache", async () => (await import("../../scripts/test-support/parity-doors")).cacheModule);

const { POST } = await import("@/app/api/slack/interactions/route");
const { decideApprovalAction } = await import("../actions/decide-approval");
const { loadApprovalPage } = await import("./server/approval-page");

const SIGNING_SECRET = "slack-signing-secret-for-tests";
let h: EngineHarness;
let slack: SlackReceiver;
let smtp: SmtpReceiver;
const ids: Record<string, string> = {};
let runId = "";
let approvalId = "";
let value = "";

beforeAll(async () => {
  slack = await startSlackReceiver();
  smtp = await startSmtpReceiver();
  h = await startEngineHarness({
    env: {
      ZAP_SLACK_SIGNING_SECRET: SIGNING_SECRET,
      ZAP_SLACK_BOT_TOKEN: "xoxb-test-token",
      ZAP_SLACK_CHANNEL: SLACK_TEST_CHANNEL,
      ZAP_SLACK_API_URL: slack.apiUrl,
      // The receiver is on loopback: the egress guard refuses it unless the operator lists it.
      ZAP_EGRESS_ALLOW_HOSTS: slack.host,
      ZAP_SMTP_URL: smtp.url,
      ZAP_SMTP_FROM: "zap@zap.test",
      AUTH_URL: "http://zap.test",
    },
  });
  doors.db = h.db;
  doors.engine = h.engine;
  doors.config = h.config;
  for (const role of ["admin", "builder", "approver", "viewer"]) ids[role] = (await h.db.user.findUniqueOrThrow({ where: { email: `${role}@zap.local` } })).id;
  await h.db.slackUserLink.createMany({
    data: [
      { slackUserId: "UVIEWER01", userId: ids.viewer ?? "", createdById: ids.admin ?? "" },
      { slackUserId: "USTARTER1", userId: ids.approver ?? "", createdById: ids.admin ?? "" },
    ],
  });
  // The approver starts the run: self-approval is off, so they may not approve its call anywhere.
  const graph = singleAgentGraph({ tools: ["ledger_transfer"], approvalRules: [{ pattern: "ledger_transfer", requiredRole: "approver", allowSelfApproval: false, expiresInSeconds: 600 }] });
  ({ runId } = await h.engine.startRun({ graph, task: 'tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":3}\nanswer: done', startedBy: { id: ids.approver ?? "", email: "approver@zap.local" } }));
  await waitForStatus(h.engine, runId, ["awaiting_approval"]);
  approvalId = (await h.engine.getPendingApprovals(runId))[0]?.id ?? "";
  value = JSON.stringify({ runId, approvalId });
  await eventually(async () => slack.calls.filter((c) => c.method === "chat.postMessage").length, (n) => n >= 1, 20_000, "the Slack message");
});
afterAll(async () => {
  await h?.stop();
  await slack?.close();
  await smtp?.close();
});

const stillPending = async () => {
  expect((await h.engine.getPendingApprovals(runId)).map((a) => a.id), "the approval is still pending").toEqual([approvalId]);
  expect(await h.db.auditEvent.count({ where: { target: `${runId}/${approvalId}` } }), "nothing audited as decided").toBe(0);
};
const request = (body: string, headers: Record<string, string>) =>
  new NextRequest("http://127.0.0.1/api/slack/interactions", { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded", ...headers } });
const signed = (body: string, timestamp = Math.floor(Date.now() / 1000), secret = SIGNING_SECRET) => ({ "x-slack-request-timestamp": String(timestamp), "x-slack-signature": slackSignature(secret, timestamp, body) });
const ephemeralsTo = (slackUserId: string) => slack.calls.filter((c) => c.method === "chat.postEphemeral" && c.body.user === slackUserId).map((c) => String(c.body.text));

describe("POST /api/slack/interactions refuses what Slack did not sign", () => {
  const click = () => slackClick({ slackUserId: "UAPPROVER9", action: "zap_approve", value });

  it("an unsigned request: 401", async () => {
    expect((await POST(request(click(), {}))).status).toBe(401);
    await stillPending();
  });

  it("a correctly signed request older than five minutes (a replay): 401", async () => {
    const body = click();
    expect((await POST(request(body, signed(body, Math.floor(Date.now() / 1000) - 301)))).status).toBe(401);
    await stillPending();
  });

  it("a request signed with another secret: 401, and the answer names no secret", async () => {
    const body = click();
    const response = await POST(request(body, signed(body, undefined, "a-guessed-signing-secret")));
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain(SIGNING_SECRET);
    await stillPending();
  });

  it("a signed request whose body was changed afterwards (another user id): 401", async () => {
    const body = click();
    const headers = signed(body);
    expect((await POST(request(body.replace("UAPPROVER9", "UVIEWER01"), headers))).status).toBe(401);
    await stillPending();
  });
});

describe("a signed click decides only as a linked Zap user who may decide", () => {
  it("an unlinked Slack user is refused, privately", async () => {
    const body = slackClick({ slackUserId: "UNOBODY01", action: "zap_approve", value });
    expect((await POST(request(body, signed(body)))).status).toBe(200);
    expect(ephemeralsTo("UNOBODY01").join("\n")).toMatch(/not linked to a Zap Studio user/);
    await stillPending();
  });

  it("a Slack user linked to a viewer is refused", async () => {
    const body = slackClick({ slackUserId: "UVIEWER01", action: "zap_approve", value });
    expect((await POST(request(body, signed(body)))).status).toBe(200);
    expect(ephemeralsTo("UVIEWER01").join("\n")).toMatch(/viewer@zap\.local \(viewer\) may not decide approvals/);
    await stillPending();
  });

  it("the run's own starter, linked in Slack, cannot approve its call (self-approval)", async () => {
    const body = slackClick({ slackUserId: "USTARTER1", action: "zap_approve", value });
    expect((await POST(request(body, signed(body)))).status).toBe(200);
    expect(ephemeralsTo("USTARTER1").join("\n")).toMatch(/Not decided: .*may not approve/);
    await stillPending();
  });
});

describe("an email's link decides nothing by itself", () => {
  it("the email went out, but not to the run's own starter", async () => {
    const [mail] = await eventually(async () => smtp.mails.filter((m) => m.headers.get("x-zap-approval") === approvalId), (m) => m.length >= 1, 20_000, "the request email");
    expect(mail?.to).toEqual(["admin@zap.local"]);
  });

  it("opening the approve link's page, signed in as an approver, leaves it pending", async () => {
    doors.userId = ids.admin ?? null;
    expect((await loadApprovalPage(approvalId))?.pending?.id).toBe(approvalId);
    expect(await loadApprovalPage(approvalId)).toMatchObject({ status: "pending" });
    await stillPending();
  });

  it("without a session the page's door decides nothing (401)", async () => {
    doors.userId = null;
    expect(await decideApprovalAction({ runId, approvalId, approved: true })).toMatchObject({ ok: false, error: { code: "unauthenticated" } });
    await stillPending();
  });

  it("a viewer following the link cannot decide (403)", async () => {
    doors.userId = ids.viewer ?? null;
    expect(await decideApprovalAction({ runId, approvalId, approved: true })).toMatchObject({ ok: false, error: { code: "forbidden" } });
    await stillPending();
  });

  it("the run's own starter following the link cannot approve (403, self-approval)", async () => {
    doors.userId = ids.approver ?? null;
    const result = await decideApprovalAction({ runId, approvalId, approved: true });
    expect(result).toMatchObject({ ok: false, error: { code: "forbidden" } });
    await stillPending();
  });
});
