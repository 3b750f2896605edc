// Reminders and escalations of pending approvals, outside the runs' workflows
// (no engine change): each tick of the monitor schedule (worker/monitor-schedule.ts)
// sweeps the pending approvals, finds the rule that gated each one in the
// graph its run executes, and after the rule's remindAfterMinutes reminds the
// request's recipients (email; a reply in the Slack message's thread), after
// escalateAfterMinutes tells escalateTo (a role's users by email, or a Slack
// channel). Each is claimed first in approval_messages (unique per approval,
// channel and kind), so however many ticks or workers run, it goes out once;
// a send that fails releases its claim for the next tick. Budget asks and plan
// approvals have no rule: their timing is the graph's (limits.budgetReminders,
// plan.approvalReminders), and agents' rules never apply to them.
import type { Db } from "../../lib/db/prisma";
import { matchesGlob } from "../../lib/agents/glob";
import { readRunRow } from "../../lib/run-ledger/read";
import { approvalRemindersSchema, approvalRuleSchema } from "../../lib/agents/schemas";
import { BUDGET_APPROVAL_TOOL } from "../../lib/contract/budget-approval";
import { PLAN_APPROVAL_TOOL } from "../../lib/contract/plan-approval";
import { roleMeets } from "../../lib/policy/gate";
import { approvalLink, nudgeMessage, type PendingFacts } from "../../lib/approval-channels/message";
import { escapeSlackText } from "../../lib/text/slack";
import { slackApi } from "../../lib/approval-channels/slack-api";
import type { EmailChannelConfig } from "./approval-email";
import type { SlackChannelConfig } from "./approval-slack";
import nodemailer from "nodemailer";
import { z } from "zod";

/** The timing fields of an approval rule, or of a graph's budget or plan reminders. */
type Reminders = z.infer<typeof approvalRemindersSchema>;
type Kind = "reminder" | "escalation";

export interface ReminderChannels {
  email: EmailChannelConfig | null;
  slack: SlackChannelConfig | null;
}

/** Approvals looked at per sweep (the oldest first). */
const SWEEP_LIMIT = 200;

const graphRules = z
  .object({
    agents: z.array(z.object({ name: z.string(), approvalRules: z.array(z.unknown()).optional() }).loose()),
    limits: z.object({ budgetReminders: z.unknown().optional() }).loose().optional(),
    plan: z.object({ approvalReminders: z.unknown().optional() }).loose().optional(),
  })
  .loose();

/** A graph-level setting, or null when absent or invalid (the save refuses invalid ones). */
function remindersOrNull(raw: unknown): Reminders | null {
  const parsed = approvalRemindersSchema.safeParse(raw);
  return raw !== undefined && parsed.success ? parsed.data : null;
}

/**
 * The timing of this approval in the saved graph the run executes: a budget ask's or a plan's from the graph's
 * settings, a call's from the rule that gated it; null for an inline graph or a policy-only gate.
 */
async function remindersOf(db: Db, record: { rootRunId: string; agentName: string; toolName: string }, graphs: Map<string, unknown>): Promise<Reminders | null> {
  const run = await readRunRow(db, record.rootRunId);
  if (!run?.agentVersionId) return null;
  if (!graphs.has(run.agentVersionId)) {
    const version = await db.agentVersion.findUnique({ where: { id: run.agentVersionId }, select: { graph: true } });
    graphs.set(run.agentVersionId, version ? (JSON.parse(version.graph) as unknown) : null);
  }
  const graph = graphRules.safeParse(graphs.get(run.agentVersionId));
  // No tool has these names (lib/contract/budget-approval.ts, plan-approval.ts), so a record with one is the run's own ask.
  if (record.toolName === BUDGET_APPROVAL_TOOL) return graph.success ? remindersOrNull(graph.data.limits?.budgetReminders) : null;
  if (record.toolName === PLAN_APPROVAL_TOOL) return graph.success ? remindersOrNull(graph.data.plan?.approvalReminders) : null;
  const agent = graph.success ? graph.data.agents.find((a) => a.name === record.agentName) : undefined;
  for (const raw of agent?.approvalRules ?? []) {
    const rule = approvalRuleSchema.safeParse(raw);
    if (rule.success && matchesGlob(rule.data.pattern, record.toolName)) return rule.data;
  }
  return null;
}

/** Builds the sweep the monitor tick runs; `now` is the tests' clock. */
export function createReminderSweep(db: Db, channels: ReminderChannels, now: () => Date = () => new Date()) {
  const transport = channels.email ? nodemailer.createTransport(channels.email.smtpUrl) : null;
  const linkBase = channels.email?.linkBase ?? channels.slack?.linkBase ?? "";

  /** Claims (approval, channel, kind); sends; releases the claim when the send fails. */
  async function once(approvalId: string, channel: "email" | "slack", kind: Kind, target: string, send: () => Promise<string | null>): Promise<boolean> {
    const id = `${approvalId}:${channel}:${kind}`;
    try {
      await db.approvalMessage.create({ data: { id, approvalId, channel, kind, target } });
    } catch (error) {
      if (error instanceof Error && "code" in error && error.code === "P2002") return false;
      throw error;
    }
    try {
      const ref = await send();
      if (ref) await db.approvalMessage.update({ where: { id }, data: { externalRef: ref } });
      return true;
    } catch (error) {
      await db.approvalMessage.delete({ where: { id } }).catch(() => undefined);
      console.error(`worker: the ${kind} of approval ${approvalId} (${channel}) failed; the next tick retries: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  }

  async function emailTo(to: string[], kind: Kind, facts: PendingFacts, waited: number): Promise<string | null> {
    if (!transport || !channels.email) return null;
    const message = nudgeMessage(kind, facts, waited, linkBase);
    await transport.sendMail({ from: channels.email.from, to, subject: message.subject, text: message.text, html: message.html, headers: { "X-Zap-Approval": facts.id, "X-Zap-Event": `approval.${kind}` } });
    return null;
  }

  async function slackPost(channel: string, threadTs: string | null, kind: Kind, facts: PendingFacts, waited: number): Promise<string | null> {
    if (!channels.slack) return null;
    const message = nudgeMessage(kind, facts, waited, linkBase);
    const text = `${escapeSlackText(message.subject)}\n${escapeSlackText(message.text.split("\n")[2] ?? "")}\n<${approvalLink(linkBase, facts.id)}|Decide in Zap Studio>`;
    const answer = await slackApi(channels.slack, "chat.postMessage", { channel, text, ...(threadTs ? { thread_ts: threadTs, reply_broadcast: kind === "escalation" } : {}) });
    return typeof answer.ts === "string" ? answer.ts : null;
  }

  /** One sweep; answers how many reminders and escalations went out. */
  return async function sweepApprovalReminders(): Promise<{ reminded: number; escalated: number }> {
    const at = now();
    const pending = await db.approvalRecord.findMany({ where: { status: "pending", expiresAt: { gt: at } }, orderBy: { requestedAt: "asc" }, take: SWEEP_LIMIT });
    const graphs = new Map<string, unknown>();
    let reminded = 0;
    let escalated = 0;
    for (const record of pending) {
      const rule = await remindersOf(db, record, graphs);
      if (!rule) continue;
      const waited = Math.floor((at.getTime() - record.requestedAt.getTime()) / 60_000);
      const facts: PendingFacts = { ...record, requestedAt: record.requestedAt.toISOString(), expiresAt: record.expiresAt.toISOString() };
      const sent = await db.approvalMessage.findMany({ where: { approvalId: record.id, kind: "request" } });
      if (rule.remindAfterMinutes !== undefined && waited >= rule.remindAfterMinutes) {
        const email = sent.find((m) => m.channel === "email");
        const slack = sent.find((m) => m.channel === "slack");
        // A channel removed since the request went out sends nothing, so nothing is recorded as sent.
        if (email && transport && (await once(record.id, "email", "reminder", email.target, () => emailTo(email.target.split(","), "reminder", facts, waited)))) reminded++;
        if (slack?.externalRef && channels.slack && (await once(record.id, "slack", "reminder", slack.target, () => slackPost(slack.target, slack.externalRef, "reminder", facts, waited)))) reminded++;
      }
      if (rule.escalateAfterMinutes !== undefined && rule.escalateTo && waited >= rule.escalateAfterMinutes) {
        const to = rule.escalateTo;
        if (to.startsWith("slack:")) {
          const channel = to.slice("slack:".length);
          if (channels.slack && (await once(record.id, "slack", "escalation", channel, () => slackPost(channel, null, "escalation", facts, waited)))) escalated++;
        } else if (transport) {
          const users = await db.user.findMany({ where: { disabledAt: null }, select: { email: true, role: true }, orderBy: { email: "asc" } });
          const emails = users.filter((u) => roleMeets(u.role, to)).map((u) => u.email);
          if (emails.length && (await once(record.id, "email", "escalation", emails.join(","), () => emailTo(emails, "escalation", facts, waited)))) escalated++;
        }
      }
    }
    return { reminded, escalated };
  };
}
