// Approvals in a Slack channel through a Slack app's bot token and the Web API
// (chat.postMessage, then chat.update once decided or expired, wherever that
// happened). The message's channel and ts are recorded (approval_messages), so
// a retried activity neither posts twice nor loses the message to update.
// A refusal (HTTP or Slack's { ok: false }) throws, and the activity retries with backoff, never holding up the run.
import type { Db } from "../../lib/db/prisma";
import { slackDecidedMessage, slackRequestMessage } from "../../lib/approval-channels/slack-message";
import { slackApi } from "../../lib/approval-channels/slack-api";
import { settingsNow, type ApprovalChannel, type ChannelSettings } from "./approval-email";

export interface SlackChannelConfig {
  botToken: string;
  /** The channel id (or name) approvals are posted to. */
  channel: string;
  /** The Web API's base URL (https://slack.com/api; tests point it at a local receiver). */
  apiUrl: string;
  /** ZAP_EGRESS_ALLOW_HOSTS: apiUrl on a private host is refused unless listed (lib/approval-channels/slack-api.ts). */
  allowHosts: string[];
  linkBase: string;
}

const CHANNEL = "slack";

/** The Slack channel: posts each request once and updates that message once the approval is decided or expired; off while its settings are absent. */
export function createSlackChannel(db: Db, settings: ChannelSettings<SlackChannelConfig>): ApprovalChannel {
  return async (notification) => {
    if (notification.event === "approval.endorsed") return;
    const config = await settingsNow(settings);
    if (!config) return;
    const approvalId = notification.approval.id;
    const sent = await db.approvalMessage.findMany({ where: { approvalId, channel: CHANNEL } });
    if (notification.event === "approval.requested") {
      if (sent.some((m) => m.kind === "request")) return;
      const answer = await slackApi(config, "chat.postMessage", { channel: config.channel, ...slackRequestMessage(notification.approval, config.linkBase) });
      const channel = typeof answer.channel === "string" ? answer.channel : config.channel;
      const ts = typeof answer.ts === "string" ? answer.ts : null;
      await db.approvalMessage.create({ data: { id: `${approvalId}:${CHANNEL}:request`, approvalId, channel: CHANNEL, kind: "request", target: channel, externalRef: ts } }).catch(ignoreDuplicate);
      return;
    }
    const request = sent.find((m) => m.kind === "request");
    if (sent.some((m) => m.kind === "decision")) return;
    // Decided before its request was posted (or the post is still being retried): throw, so the retry updates it once it exists.
    if (!request?.externalRef) throw new Error(`the Slack message of approval ${approvalId} is not posted yet`);
    await slackApi(config, "chat.update", { channel: request.target, ts: request.externalRef, ...slackDecidedMessage(notification, config.linkBase) });
    await db.approvalMessage.create({ data: { id: `${approvalId}:${CHANNEL}:decision`, approvalId, channel: CHANNEL, kind: "decision", target: request.target, externalRef: request.externalRef } }).catch(ignoreDuplicate);
  };
}

function ignoreDuplicate(error: unknown): void {
  // Recorded by a concurrent attempt: the message went out either way.
  if (!(error instanceof Error && "code" in error && error.code === "P2002")) throw error;
}
