// Issue 39 §2, reminders and escalation, on a real run of a saved agent (real
// Temporal, real database, a real SMTP server, a local Slack Web API
// receiver): the rule's remindAfterMinutes reminds the request's recipients by
// email and in the Slack message's thread, escalateAfterMinutes tells the
// escalation role by email; each once, however many sweeps run; nothing
// before its time, nothing once decided. The sweep runs with a clock moved
// ahead (the rule counts in minutes); the worker's tick runs the same function.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { startSmtpReceiver, type SmtpReceiver } from "../../scripts/test-support/smtp-receiver";
import { SLACK_TEST_CHANNEL, startSlackReceiver, type SlackReceiver } from "../../scripts/test-support/slack-receiver";
import { saveAgentVersion } from "../../lib/agents/repository";
import { createReminderSweep } from "../activities/approval-reminders";

let h: EngineHarness;
let smtp: SmtpReceiver;
let slack: SlackReceiver;
let graphName = "";
let approver = { id: "", email: "" };

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  slack = await startSlackReceiver();
  h = await startEngineHarness({
    env: {
      ZAP_SMTP_URL: smtp.url,
      ZAP_SMTP_FROM: "zap@zap.test",
      ZAP_SLACK_SIGNING_SECRET: "slack-signing-secret-for-tests",
      ZAP_SLACK_BOT_TOKEN: "xoxb-test-token",
      ZAP_SLACK_CHANNEL: SLACK_TEST_CHANNEL,
      ZAP_SLACK_API_URL: slack.apiUrl,
      // The receiver is on loopback: the egress guard refuses it unless the operator lists it.
      ZAP_EGRESS_ALLOW_HOSTS: slack.host,
      AUTH_URL: "http://zap.test",
    },
  });
  // A builder wrote the agent and the approver starts its runs: both are "self", so the admin is who may decide.
  const builder = await h.db.user.findUniqueOrThrow({ where: { email: "builder@zap.local" } });
  const a = await h.db.user.findUniqueOrThrow({ where: { email: "approver@zap.local" } });
  approver = { id: a.id, email: a.email };
  graphName = `reminded-${randomUUID().slice(0, 8)}`;
  const rule = { pattern: "ledger_transfer", requiredRole: "approver" as const, expiresInSeconds: 3600, remindAfterMinutes: 10, escalateAfterMinutes: 30, escalateTo: "admin" as const };
  await saveAgentVersion(h.db, graphName, { entryAgent: "main", agents: [{ name: "main", model: "demo/test", tools: ["ledger_transfer"], approvalRules: [rule] }] }, { createdById: builder.id });
});
afterAll(async () => {
  await h?.stop();
  await smtp?.close();
  await slack?.close();
});

const task = 'tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":4}\nanswer: done';
const mailsOf = (approvalId: string, event: string) => smtp.mails.filter((m) => m.headers.get("x-zap-approval") === approvalId && m.headers.get("x-zap-event") === event);

async function pendingApproval() {
  const { runId } = await h.engine.startRun({ graphName, task, startedBy: { id: approver.id, email: approver.email } });
  await waitForStatus(h.engine, runId, ["awaiting_approval"]);
  const [approval] = await h.engine.getPendingApprovals(runId);
  if (!approval) throw new Error("expected a pending approval");
  // The request went out on both channels first (the reminder follows it).
  await eventually(async () => (await h.db.approvalMessage.findMany({ where: { approvalId: approval.id, kind: "request" } })).map((m) => m.channel).sort(), (c) => c.join() === "email,slack", 20_000, "the request on both channels");
  return { runId, approval };
}

const config = () => {
  const { email, slack: s, linkBase } = h.config.approvalChannels;
  if (!email || !s) throw new Error("both channels are configured");
  return { email: { ...email, linkBase }, slack: { botToken: s.botToken, channel: s.channel, apiUrl: s.apiUrl, allowHosts: s.allowHosts, linkBase } };
};
const sweepAt = (approval: { requestedAt: string }, minutes: number) => createReminderSweep(h.db, config(), () => new Date(Date.parse(approval.requestedAt) + minutes * 60_000 + 1000));

describe("approval reminders and escalation", () => {
  it("reminds after remindAfterMinutes and escalates after escalateAfterMinutes, each once", async () => {
    const { approval } = await pendingApproval();
    expect(await sweepAt(approval, 9)(), "nothing before its time").toMatchObject({ reminded: 0, escalated: 0 });

    expect(await sweepAt(approval, 10)()).toMatchObject({ reminded: 2, escalated: 0 });
    expect(await sweepAt(approval, 12)(), "a second sweep sends nothing again").toMatchObject({ reminded: 0, escalated: 0 });
    const [reminder] = mailsOf(approval.id, "approval.reminder");
    expect(reminder?.to, "the request's recipients (the starter is not one)").toEqual(["admin@zap.local"]);
    expect(reminder?.subject).toBe(`Reminder: approval still needed: ledger_transfer (agent main, run ${approval.rootRunId})`);
    expect(reminder?.text).toContain(`Decide: http://zap.test/approvals/${approval.id}`);
    const request = await h.db.approvalMessage.findFirstOrThrow({ where: { approvalId: approval.id, channel: "slack", kind: "request" } });
    const thread = slack.calls.filter((c) => c.method === "chat.postMessage" && c.body.thread_ts === request.externalRef);
    expect(thread.map((c) => String(c.body.text).split("\n")[0])).toEqual([`Reminder: approval still needed: ledger_transfer (agent main, run ${approval.rootRunId})`]);

    expect(await sweepAt(approval, 31)()).toMatchObject({ reminded: 0, escalated: 1 });
    expect(await sweepAt(approval, 40)()).toMatchObject({ reminded: 0, escalated: 0 });
    const escalations = mailsOf(approval.id, "approval.escalation");
    expect(escalations.map((m) => m.to)).toEqual([["admin@zap.local"]]);
    expect(escalations[0]?.text).toMatch(/has waited 31 minutes for a decision/);
  });

  it("records no reminder through a channel removed since the request went out, and sends it once the channel is back", async () => {
    const { runId, approval } = await pendingApproval();
    const removed = createReminderSweep(h.db, { email: null, slack: null }, () => new Date(Date.parse(approval.requestedAt) + 11 * 60_000));
    expect(await removed(), "no channel, nothing sent").toMatchObject({ reminded: 0, escalated: 0 });
    expect(await h.db.approvalMessage.count({ where: { approvalId: approval.id, kind: "reminder" } }), "nothing recorded as sent").toBe(0);
    expect(await sweepAt(approval, 12)(), "the channels are back: the reminder goes out").toMatchObject({ reminded: 2 });
    expect(mailsOf(approval.id, "approval.reminder")).toHaveLength(1);
    // Decided, so the next test's sweeps (which see every pending approval) leave it alone.
    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: false, decidedBy: { id: "someone", email: "admin@zap.local", role: "admin" } });
    await eventually(async () => (await h.db.approvalRecord.findUniqueOrThrow({ where: { id: approval.id } })).status, (s) => s === "rejected", 20_000, "the recorded decision");
  });

  it("sends nothing for an approval already decided", async () => {
    const { runId, approval } = await pendingApproval();
    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: false, decidedBy: { id: "someone", email: "admin@zap.local", role: "admin" } });
    await eventually(async () => (await h.db.approvalRecord.findUniqueOrThrow({ where: { id: approval.id } })).status, (s) => s === "rejected", 20_000, "the recorded decision");
    expect(await sweepAt(approval, 45)()).toMatchObject({ reminded: 0, escalated: 0 });
    expect(mailsOf(approval.id, "approval.reminder")).toEqual([]);
  });
});
