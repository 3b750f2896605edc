// Issue 39 §2, reminders and escalation of the approvals a graph asks for
// without a rule: a budget ask (limits.budgetReminders, with onBudget "ask")
// and a plan approval (plan.approvalReminders, with plan.approval), on real
// runs of saved graphs (real Temporal, SQLite and PostgreSQL, a real SMTP
// server, a local Slack Web API receiver). Each reminder and escalation goes
// out once however many sweeps run, nothing before its time; a graph without
// the setting reminds nobody. The sweep runs with a clock moved ahead, as in
// approval-reminders.int.test.ts; the worker's tick runs the same function.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { freshPostgres, freshSqlite, postgresReachable, type TestDatabase } from "../../scripts/test-support/databases";
import { startSmtpReceiver, type SmtpReceiver } from "../../scripts/test-support/smtp-receiver";
import { SLACK_TEST_CHANNEL, startSlackReceiver, type SlackReceiver } from "../../scripts/test-support/slack-receiver";
import { saveAgentVersion } from "../../lib/agents/repository";
import { BUDGET_APPROVAL_TOOL } from "../../lib/contract/budget-approval";
import { PLAN_APPROVAL_TOOL } from "../../lib/contract/plan-approval";
import tripPlanner from "../../lib/agents/demo/trip-planner.json";
import { createReminderSweep } from "../activities/approval-reminders";

const pgUp = await postgresReachable();

/** Three model calls of 600 output tokens each: the second crosses a 1,000-token budget (budget-ask.int.test.ts). */
const THIRSTY_TASK = 'tokens 600\nrepeat 2 tool calculator {"expression":"1+1"}\nanswer: done';
const TRIP_TASK = "Plan a 3-day trip to Lisbon\n@itinerary-planner: answer: Day 1 Alfama, day 2 Belém, day 3 Sintra";

describe.each([
  ["sqlite", freshSqlite],
  ["postgresql", async (): Promise<TestDatabase | null> => (pgUp ? freshPostgres() : null)],
] as const)("reminders of budget asks and plan approvals on %s", (_provider, make) => {
  let h: EngineHarness | null = null;
  let smtp: SmtpReceiver;
  let slack: SlackReceiver;
  let starter = { id: "", email: "" };
  const names = { budget: `budget-reminded-${randomUUID().slice(0, 8)}`, plan: `plan-reminded-${randomUUID().slice(0, 8)}`, silent: `budget-silent-${randomUUID().slice(0, 8)}` };

  beforeAll(async () => {
    const database = await make();
    if (!database) return;
    smtp = await startSmtpReceiver();
    slack = await startSlackReceiver();
    h = await startEngineHarness({
      database,
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
    const builder = await h.db.user.findUniqueOrThrow({ where: { email: "builder@zap.local" } });
    const a = await h.db.user.findUniqueOrThrow({ where: { email: "approver@zap.local" } });
    starter = { id: a.id, email: a.email };
    const budgetReminders = { remindAfterMinutes: 5, escalateAfterMinutes: 15, escalateTo: "admin" as const };
    await saveAgentVersion(h.db, names.budget, singleAgentGraph({ tools: ["calculator"] }, { tokenBudget: 1000, onBudget: "ask", budgetReminders, followUpWindowSeconds: 0 }), { createdById: builder.id });
    await saveAgentVersion(h.db, names.silent, singleAgentGraph({ tools: ["calculator"] }, { tokenBudget: 1000, onBudget: "ask", followUpWindowSeconds: 0 }), { createdById: builder.id });
    const plan = { ...tripPlanner.plan, approval: true, approvalReminders: { remindAfterMinutes: 3, escalateAfterMinutes: 7, escalateTo: "slack:C0ESCALATE" } };
    await saveAgentVersion(h.db, names.plan, { ...tripPlanner, mode: "plan-and-execute" as const, plan, limits: { ...tripPlanner.limits, followUpWindowSeconds: 0 } }, { createdById: builder.id });
  });
  afterAll(async () => {
    await h?.stop();
    await smtp?.close();
    await slack?.close();
  });

  const harness = (): EngineHarness => {
    if (!h) throw new Error("no harness");
    return h;
  };
  const mailsOf = (approvalId: string, event: string) => smtp.mails.filter((m) => m.headers.get("x-zap-approval") === approvalId && m.headers.get("x-zap-event") === event);
  const config = () => {
    const { email, slack: s, linkBase } = harness().config.approvalChannels;
    if (!email || !s) throw new Error("both channels are configured");
    return { email: { ...email, linkBase }, slack: { botToken: s.botToken, channel: s.channel, apiUrl: s.apiUrl, allowHosts: s.allowHosts, linkBase } };
  };
  const sweepAt = (approval: { requestedAt: string }, minutes: number) => createReminderSweep(harness().db, config(), () => new Date(Date.parse(approval.requestedAt) + minutes * 60_000 + 1000));

  async function pendingApproval(graphName: string, task: string, toolName: string) {
    const { engine, db } = harness();
    const { runId } = await engine.startRun({ graphName, task, startedBy: starter });
    await waitForStatus(engine, runId, ["awaiting_approval"]);
    const [approval] = await eventually(() => engine.getPendingApprovals(runId), (list) => list.length === 1 && !list[0]?.unconfirmed, 20_000, `the ${toolName} approval`);
    if (!approval) throw new Error("expected a pending approval");
    expect(approval.toolName).toBe(toolName);
    await eventually(async () => (await db.approvalMessage.findMany({ where: { approvalId: approval.id, kind: "request" } })).map((m) => m.channel).sort(), (c) => c.join() === "email,slack", 20_000, "the request on both channels");
    return { runId, approval };
  }

  it("reminds a budget ask after limits.budgetReminders' minutes and escalates it to a role, each once", async (ctx) => {
    if (!h) return ctx.skip();
    const { runId, approval } = await pendingApproval(names.budget, THIRSTY_TASK, BUDGET_APPROVAL_TOOL);
    expect(await sweepAt(approval, 4)(), "nothing before its time").toMatchObject({ reminded: 0, escalated: 0 });
    expect(await sweepAt(approval, 5)()).toMatchObject({ reminded: 2, escalated: 0 });
    expect(await sweepAt(approval, 6)(), "a second sweep sends nothing again").toMatchObject({ reminded: 0, escalated: 0 });
    expect(mailsOf(approval.id, "approval.reminder")).toHaveLength(1);
    const request = await h.db.approvalMessage.findFirstOrThrow({ where: { approvalId: approval.id, channel: "slack", kind: "request" } });
    expect(slack.calls.filter((c) => c.method === "chat.postMessage" && c.body.thread_ts === request.externalRef).map((c) => String(c.body.text).split("\n")[0])).toEqual([
      `Reminder: approval still needed: ${BUDGET_APPROVAL_TOOL} (agent main, run ${approval.rootRunId})`,
    ]);
    expect(await sweepAt(approval, 16)()).toMatchObject({ reminded: 0, escalated: 1 });
    expect(await sweepAt(approval, 30)()).toMatchObject({ reminded: 0, escalated: 0 });
    expect(mailsOf(approval.id, "approval.escalation").map((m) => m.to)).toEqual([["admin@zap.local"]]);
    await h.engine.cancelRun(runId).catch(() => undefined);
  });

  it("reminds a plan approval after plan.approvalReminders' minutes and escalates it to a Slack channel, each once", async (ctx) => {
    if (!h) return ctx.skip();
    const { runId, approval } = await pendingApproval(names.plan, TRIP_TASK, PLAN_APPROVAL_TOOL);
    expect(await sweepAt(approval, 2)()).toMatchObject({ reminded: 0, escalated: 0 });
    expect(await sweepAt(approval, 3)()).toMatchObject({ reminded: 2, escalated: 0 });
    expect(await sweepAt(approval, 8)()).toMatchObject({ reminded: 0, escalated: 1 });
    expect(await sweepAt(approval, 9)()).toMatchObject({ reminded: 0, escalated: 0 });
    const escalations = slack.calls.filter((c) => c.method === "chat.postMessage" && c.body.channel === "C0ESCALATE");
    expect(escalations.map((c) => String(c.body.text).split("\n")[0])).toEqual([`Escalated: approval still needed: ${PLAN_APPROVAL_TOOL} (agent ${approval.agentName}, run ${approval.rootRunId})`]);
    expect(escalations[0]?.body.text).toContain(`http://zap.test/approvals/${approval.id}`);
    await h.engine.cancelRun(runId).catch(() => undefined);
  });

  it("reminds nobody of a budget ask whose graph sets no reminders", async (ctx) => {
    if (!h) return ctx.skip();
    const { runId, approval } = await pendingApproval(names.silent, THIRSTY_TASK, BUDGET_APPROVAL_TOOL);
    expect(await sweepAt(approval, 600)()).toMatchObject({ reminded: 0, escalated: 0 });
    expect(await h.db.approvalMessage.count({ where: { approvalId: approval.id, kind: { in: ["reminder", "escalation"] } } })).toBe(0);
    await h.engine.cancelRun(runId).catch(() => undefined);
  });
});
