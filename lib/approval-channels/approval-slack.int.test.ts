// Issue 39 §2, approvals in Slack, on a real run (real Temporal, real
// database): the request is posted through the Web API (a local receiver
// stands in for Slack, which has no offline implementation) with the run, the
// call and buttons; a click, signed as Slack signs it, decides as the Zap user
// an admin linked that Slack user to; the message is updated to say who
// decided and when, wherever the decision was made; the inbox shows it.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { eventually, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { doors } from "../../scripts/test-support/parity-doors";
import { SLACK_TEST_CHANNEL, slackClick, startSlackReceiver, type SlackCall, type SlackReceiver } from "../../scripts/test-support/slack-receiver";
import { readRunDecisions } from "../inbox/server/decisions";
import { slackSignature } from "./slack-signature";

vi.mock("@/lib/auth/server/auth", async () => (await import("../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/engine/server/engine", async () => (await import("../../scripts/test-support/parity-doors")).engineModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../scripts/test-support/parity-doors")).configModule);
vi.mock("next/cache", async () => (await import("../../scripts/test-support/parity-doors")).cacheModule);

const { POST } = await import("@/app/api/slack/interactions/route");
const { decideApprovalAction } = await import("../actions/decide-approval");

const SIGNING_SECRET = "slack-signing-secret-for-tests";
const BOT_TOKEN = "xoxb-test-token";
let h: EngineHarness;
let slack: SlackReceiver;
const ids: Record<string, string> = {};

beforeAll(async () => {
  slack = await startSlackReceiver();
  h = await startEngineHarness({
    env: { ZAP_SLACK_SIGNING_SECRET: SIGNING_SECRET, ZAP_SLACK_BOT_TOKEN: BOT_TOKEN, ZAP_SLACK_CHANNEL: SLACK_TEST_CHANNEL, ZAP_SLACK_API_URL: slack.apiUrl, ZAP_EGRESS_ALLOW_HOSTS: slack.host, AUTH_URL: "http://zap.test" },
  });
  doors.db = h.db;
  doors.engine = h.engine;
  doors.config = h.config;
  for (const role of ["admin", "builder", "approver", "viewer"]) ids[role] = (await h.db.user.findUniqueOrThrow({ where: { email: `${role}@zap.local` } })).id;
  await h.db.slackUserLink.create({ data: { slackUserId: "UAPPROVER1", userId: ids.approver ?? "", createdById: ids.admin ?? "" } });
});
afterAll(async () => {
  await h?.stop();
  await slack?.close();
});

const transfer = (amount: number) => `tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":${amount}}\nanswer: done`;
const graph = singleAgentGraph({ tools: ["ledger_transfer"], approvalRules: [{ pattern: "ledger_transfer", requiredRole: "approver", expiresInSeconds: 600 }] });
const callsAbout = (approvalId: string, method: string): SlackCall[] => slack.calls.filter((c) => c.method === method && JSON.stringify(c.body).includes(approvalId));
const updatesOf = (ts: unknown): SlackCall[] => slack.calls.filter((c) => c.method === "chat.update" && c.body.ts === ts);

async function postedApproval(amount: number) {
  const { runId } = await h.engine.startRun({ graph, task: transfer(amount), startedBy: { id: ids.builder ?? "", email: "builder@zap.local" } });
  await waitForStatus(h.engine, runId, ["awaiting_approval"]);
  const [approval] = await h.engine.getPendingApprovals(runId);
  if (!approval) throw new Error("expected a pending approval");
  const [post] = await eventually(async () => callsAbout(approval.id, "chat.postMessage"), (c) => c.length >= 1, 20_000, "the Slack message");
  if (!post) throw new Error("no Slack message");
  return { runId, approval, post };
}

function signedClick(body: string): NextRequest {
  const timestamp = Math.floor(Date.now() / 1000);
  return new NextRequest("http://127.0.0.1/api/slack/interactions", {
    method: "POST",
    body,
    headers: { "content-type": "application/x-www-form-urlencoded", "x-slack-request-timestamp": String(timestamp), "x-slack-signature": slackSignature(SIGNING_SECRET, timestamp, body) },
  });
}

const buttonValue = (post: SlackCall, actionId: string): string => {
  const actions = (post.body.blocks as { type: string; elements?: { action_id: string; value?: string }[] }[]).find((b) => b.type === "actions");
  const value = actions?.elements?.find((e) => e.action_id === actionId)?.value;
  if (!value) throw new Error(`no ${actionId} button`);
  return value;
};

describe("approvals in Slack", () => {
  it("posts the request; a signed click by a linked Slack user decides it as that Zap user; the message and the inbox show who decided", async () => {
    const { runId, approval, post } = await postedApproval(11);
    expect(post.authorization).toBe(`Bearer ${BOT_TOKEN}`);
    expect(post.body.channel).toBe(SLACK_TEST_CHANNEL);
    const blocks = JSON.stringify(post.body.blocks);
    expect(blocks).toContain(runId);
    expect(blocks).toContain("ledger_transfer");
    expect(blocks).toContain('\\"amount\\": 11');
    expect(blocks).toMatch(/Rule: needs one person with the approver role/);
    expect(blocks).toContain(`http://zap.test/approvals/${approval.id}`);
    expect(JSON.parse(buttonValue(post, "zap_approve"))).toEqual({ runId, approvalId: approval.id });

    const response = await POST(signedClick(slackClick({ slackUserId: "UAPPROVER1", action: "zap_approve", value: buttonValue(post, "zap_approve") })));
    expect(response.status).toBe(200);
    await waitForStatus(h.engine, runId, ["completed"]);

    const audit = await h.db.auditEvent.findFirstOrThrow({ where: { target: `${runId}/${approval.id}` } });
    expect(audit).toMatchObject({ action: "approval.approved", actorId: ids.approver });
    const [decided] = await readRunDecisions(h.db, runId);
    expect(decided, "the inbox's decided list").toMatchObject({ approvalId: approval.id, status: "approved", decidedBy: "approver@zap.local" });

    const [update] = await eventually(async () => updatesOf("1700000000.000001"), (c) => c.length >= 1, 20_000, "the message's update");
    expect(update?.body.channel).toBe(SLACK_TEST_CHANNEL);
    expect(String(update?.body.text)).toMatch(/Approved by approver@zap\.local at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\./);
    expect(JSON.stringify(update?.body.blocks), "no buttons once decided").not.toContain("zap_approve");
  });

  it("a decision made in Zap Studio updates the Slack message too", async () => {
    const { runId, approval, post } = await postedApproval(12);
    const ts = slack.calls.filter((c) => c.method === "chat.postMessage").indexOf(post) + 1;
    doors.userId = ids.admin ?? null;
    expect(await decideApprovalAction({ runId, approvalId: approval.id, approved: false, reason: "wrong account" })).toMatchObject({ ok: true });
    const [update] = await eventually(async () => updatesOf(`1700000000.${String(ts).padStart(6, "0")}`), (c) => c.length >= 1, 20_000, "the message's update");
    expect(String(update?.body.text)).toMatch(/Rejected by admin@zap\.local at .* UTC: wrong account\./);
  });
});
