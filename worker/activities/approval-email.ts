// Approval emails over SMTP (nodemailer): the request, to every active user
// whose role may decide it (or the configured addresses), and one follow-up
// once it is decided or expired. Each sent message is recorded
// (approval_messages, unique per approval, channel and kind), so a retried
// notification activity never sends it twice; a send that fails throws and
// the activity retries with backoff, never holding up the run.
import nodemailer from "nodemailer";
import type { Db } from "../../lib/db/prisma";
import type { ApprovalNotification } from "../../lib/contract/workflow";
import type { ApprovalRequest } from "../../lib/contract/types";
import { roleMeets } from "../../lib/policy/gate";
import { decisionEmail, requestEmail } from "../../lib/approval-channels/message";

export interface EmailChannelConfig {
  smtpUrl: string;
  from: string;
  /** Fixed recipients; null: every active user whose role meets the approval's. */
  to: string[] | null;
  linkBase: string;
}

/** One channel's delivery of a notification; throws to be retried. */
export type ApprovalChannel = (notification: ApprovalNotification) => Promise<void>;

/** A channel's settings: fixed, or read at each delivery (the settings in effect, which an admin may change; null: off). */
export type ChannelSettings<C> = C | (() => Promise<C | null>);

/** The settings in effect for this delivery. */
export async function settingsNow<C extends object>(settings: ChannelSettings<C>): Promise<C | null> {
  return typeof settings === "function" ? settings() : settings;
}

const CHANNEL = "email";

/** The people who may decide: active users whose role meets the approval's (approver when none), minus those refused as "self". */
export async function approvalRecipients(db: Db, approval: ApprovalRequest): Promise<string[]> {
  const users = await db.user.findMany({ where: { disabledAt: null }, select: { email: true, role: true }, orderBy: { email: "asc" } });
  const self = new Set(approval.allowSelfApproval ? [] : (approval.selfEmails ?? []).map((e) => e.toLowerCase()));
  return users.filter((u) => roleMeets(u.role, approval.requiredRole ?? "approver") && !self.has(u.email.toLowerCase())).map((u) => u.email);
}

function kindOf(event: ApprovalNotification["event"]): "request" | "decision" | null {
  if (event === "approval.requested") return "request";
  if (event === "approval.endorsed") return null;
  return "decision";
}

/** The email channel: sends each approval's request and its outcome once; off while its settings are absent. */
export function createEmailChannel(db: Db, settings: ChannelSettings<EmailChannelConfig>): ApprovalChannel {
  // One transport per SMTP URL: a changed setting gets a new one.
  let current: { smtpUrl: string; transport: ReturnType<typeof nodemailer.createTransport> } | null = null;
  const transportFor = (smtpUrl: string) => {
    if (current?.smtpUrl !== smtpUrl) {
      current?.transport.close();
      current = { smtpUrl, transport: nodemailer.createTransport(smtpUrl) };
    }
    return current.transport;
  };
  return async (notification) => {
    const kind = kindOf(notification.event);
    if (!kind) return;
    const config = await settingsNow(settings);
    if (!config) return;
    const transport = transportFor(config.smtpUrl);
    const approvalId = notification.approval.id;
    const sent = await db.approvalMessage.findMany({ where: { approvalId, channel: CHANNEL } });
    if (sent.some((m) => m.kind === kind)) return;
    // The follow-up goes to whoever got the request; without one (decided before it went out), to the same people it would have.
    const request = sent.find((m) => m.kind === "request");
    const to = request ? request.target.split(",").filter(Boolean) : (config.to ?? (await approvalRecipients(db, notification.approval)));
    if (to.length === 0) return;
    const message = kind === "request" ? requestEmail(notification.approval, config.linkBase) : decisionEmail(notification, config.linkBase);
    await transport.sendMail({
      from: config.from,
      to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      headers: { "X-Zap-Approval": approvalId, "X-Zap-Event": notification.event },
    });
    await db.approvalMessage
      .create({ data: { id: `${approvalId}:${CHANNEL}:${kind}`, approvalId, channel: CHANNEL, kind, target: to.join(",") } })
      .catch((error: unknown) => {
        // Recorded by a concurrent attempt: the message went out either way.
        if (!(error instanceof Error && "code" in error && error.code === "P2002")) throw error;
      });
  };
}
