// An approval as a Slack message (Block Kit): the same facts as the email
// (lib/approval-channels/message.ts), Approve / Reject buttons that Slack posts
// back to /api/slack/interactions (each asks "are you sure?" first), and a
// link to the approval page. Once decided, the message is replaced by the same
// facts and who decided when, without buttons. Text from models and users is
// escaped the way Slack documents (& < >), so it cannot ping or hide a link.
import type { ApprovalNotification } from "../contract/workflow";
import type { ApprovalRequest } from "../contract/types";
import { guardrailHoldSentence } from "../contract/guardrail-approval";
import { escapeSlackText } from "../text/slack";
import { approvalLink, outcomeSentence, ruleWords, shownArguments, utcMoment } from "./message";

export const SLACK_APPROVE_ACTION = "zap_approve";
export const SLACK_REJECT_ACTION = "zap_reject";

/** What a button carries back: which approval of which run (Slack returns it as the action's value). */
export interface SlackButtonValue {
  runId: string;
  approvalId: string;
}

export interface SlackMessage {
  /** The notification's fallback text. */
  text: string;
  blocks: Record<string, unknown>[];
}

const mrkdwn = (text: string) => ({ type: "mrkdwn", text });
const plain = (text: string) => ({ type: "plain_text", text: text.slice(0, 75) });

function factBlocks(a: ApprovalRequest): Record<string, unknown>[] {
  // Inside a code block only ``` would end it early; & < > are escaped as everywhere else.
  const args = escapeSlackText(shownArguments(a.arguments)).replaceAll("```", "`\u200b``");
  const held = guardrailHoldSentence(a);
  return [
    {
      type: "section",
      fields: [
        mrkdwn(`*Run*\n${escapeSlackText(a.runId)}`),
        mrkdwn(`*Agent*\n${escapeSlackText(a.agentName)}`),
        mrkdwn(`*Tool*\n${escapeSlackText(a.toolName)}`),
        mrkdwn(`*Started by*\n${escapeSlackText(a.requestedBy ?? "—")}`),
      ],
    },
    { type: "section", text: mrkdwn(`*Arguments*\n\`\`\`${args}\`\`\``) },
    // A call a guardrail held says why, as the inbox's card and the email do (the verdict quotes nothing it found).
    ...(held ? [{ type: "section", text: mrkdwn(`*Guardrail*\n${escapeSlackText(held)}`) }] : []),
    { type: "context", elements: [mrkdwn(`Rule: ${escapeSlackText(ruleWords(a))} · requested ${utcMoment(a.requestedAt)}`)] },
  ];
}

/** The request: facts, Approve / Reject (each confirmed in Slack) and a link to the page. */
export function slackRequestMessage(a: ApprovalRequest, linkBase: string): SlackMessage {
  const title = `Approval needed: ${a.toolName} (agent ${a.agentName}, run ${a.rootRunId})`;
  const value = JSON.stringify({ runId: a.runId, approvalId: a.id } satisfies SlackButtonValue);
  const confirm = (verb: string) => ({ title: plain(`${verb} this call?`), text: plain(`${verb} ${a.toolName} as your Zap Studio user.`), confirm: plain(verb), deny: plain("Cancel") });
  return {
    text: escapeSlackText(title),
    blocks: [
      { type: "section", text: mrkdwn(`*${escapeSlackText(title)}*`) },
      ...factBlocks(a),
      {
        type: "actions",
        block_id: "zap_approval",
        elements: [
          { type: "button", action_id: SLACK_APPROVE_ACTION, style: "primary", text: plain("Approve"), value, confirm: confirm("Approve") },
          { type: "button", action_id: SLACK_REJECT_ACTION, style: "danger", text: plain("Reject"), value, confirm: confirm("Reject") },
          { type: "button", action_id: "zap_open", text: plain("Open in Zap Studio"), url: approvalLink(linkBase, a.id) },
        ],
      },
    ],
  };
}

/** The same message once decided (anywhere) or expired: who decided and when, no buttons. */
export function slackDecidedMessage(n: ApprovalNotification, linkBase: string): SlackMessage {
  const a = n.approval;
  const sentence = outcomeSentence(n);
  return {
    text: escapeSlackText(`${a.toolName} (agent ${a.agentName}, run ${a.rootRunId}): ${sentence}`),
    blocks: [
      { type: "section", text: mrkdwn(`*${escapeSlackText(`${a.toolName} (agent ${a.agentName}, run ${a.rootRunId})`)}*\n${escapeSlackText(sentence)}`) },
      ...factBlocks(a),
      { type: "context", elements: [mrkdwn(`<${approvalLink(linkBase, a.id)}|Open in Zap Studio>`)] },
    ],
  };
}
