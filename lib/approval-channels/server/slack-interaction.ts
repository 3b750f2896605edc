import "server-only";
// A click on an approval's Approve / Reject button in Slack, from the request
// to the answer. No session: Slack's request signature is the caller's
// credential (401 without a valid one within five minutes). The Slack user who
// clicked decides only as the Zap user an admin linked them to, through the
// inbox's own decision (lib/inbox/server/decide.ts decideOne: same input
// schema, the approvals:decide role, and the run's own checks of role,
// self-approval and "already decided", which writes the audit row). Every
// refusal is told to that Slack user alone (an ephemeral message).
import { z } from "zod";
import type { Db } from "../../db/prisma";
import type { Engine } from "../../engine/client";
import { can, isRole } from "../../access/roles";
import { AppError } from "../../errors";
import { readBodyText } from "../../http/server/request-guard";
import { decideInputSchema } from "../../inbox/schemas";
import { decideOne } from "../../inbox/server/decide";
import { SLACK_APPROVE_ACTION, SLACK_REJECT_ACTION, type SlackButtonValue } from "../slack-message";
import { SLACK_SIGNATURE_HEADER, SLACK_TIMESTAMP_HEADER, slackSignatureProblem } from "../slack-signature";
import { slackApi } from "../slack-api";

export const SLACK_BODY_MAX_BYTES = 64 * 1024;

export interface SlackConfig {
  signingSecret: string;
  botToken: string;
  apiUrl: string;
  /** ZAP_EGRESS_ALLOW_HOSTS, for the egress guard of the ephemeral answers. */
  allowHosts: string[];
}

export interface SlackInteractionDeps {
  db: Db;
  engine: Engine;
  slack: SlackConfig | null;
  nowSeconds?: () => number;
}

export interface SlackAnswer {
  status: number;
  body: Record<string, unknown>;
}

const buttonValueSchema = z.object({ runId: z.string().min(1).max(200), approvalId: z.string().min(1).max(200) }).strict();
// Only what is read; Slack's payload has many more fields.
const payloadSchema = z.object({
  type: z.string(),
  user: z.object({ id: z.string().regex(/^[A-Z0-9]{2,40}$/) }),
  channel: z.object({ id: z.string().max(80) }).optional(),
  actions: z.array(z.object({ action_id: z.string(), value: z.string().max(2000).optional() })).min(1),
});

/** Handles one interaction request: verifies it, maps the Slack user, decides. */
export async function handleSlackInteraction(deps: SlackInteractionDeps, request: Request): Promise<SlackAnswer> {
  if (!deps.slack) return { status: 404, body: { error: { code: "not_found", message: "Slack approvals are not configured" } } };
  const body = await readBodyText(request, SLACK_BODY_MAX_BYTES);
  const problem = slackSignatureProblem(
    { signingSecret: deps.slack.signingSecret, body, timestamp: request.headers.get(SLACK_TIMESTAMP_HEADER), signature: request.headers.get(SLACK_SIGNATURE_HEADER) },
    deps.nowSeconds?.() ?? Math.floor(Date.now() / 1000),
  );
  if (problem) return { status: 401, body: { error: { code: "bad_signature", message: `not a signed Slack request: ${problem}` } } };
  const payload = parsePayload(body);
  if (!payload) return { status: 422, body: { error: { code: "invalid_input", message: "payload: expected Slack's block_actions JSON" } } };
  const action = payload.actions.find((a) => a.action_id === SLACK_APPROVE_ACTION || a.action_id === SLACK_REJECT_ACTION);
  // Other buttons (the page link) need no answer.
  if (payload.type !== "block_actions" || !action) return { status: 200, body: {} };
  const value = parseValue(action.value);
  if (!value) return { status: 422, body: { error: { code: "invalid_input", message: "actions[0].value: expected the approval's run and id" } } };
  const tell = (text: string) => ephemeral(deps.slack!, payload.channel?.id, payload.user.id, text);

  const user = await linkedUser(deps.db, payload.user.id);
  if (!user) {
    await tell("Your Slack account is not linked to a Zap Studio user, so you cannot decide approvals here. Ask an admin to link it (Admin → Slack), or decide in Zap Studio.");
    return { status: 200, body: {} };
  }
  if (!can(user.role, "approvals:decide")) {
    await tell(`Your Zap Studio user ${user.email} (${user.role}) may not decide approvals.`);
    return { status: 200, body: {} };
  }
  const input = decideInputSchema.safeParse({ runId: value.runId, approvalId: value.approvalId, approved: action.action_id === SLACK_APPROVE_ACTION });
  if (!input.success) return { status: 422, body: { error: { code: "invalid_input", message: "actions[0].value: not an approval of a run" } } };
  try {
    await decideOne(deps.engine, user, input.data);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    await tell(`Not decided: ${error.userMessage}`);
  }
  // The message itself is updated by the worker once the run has recorded the decision (approval-slack.ts).
  return { status: 200, body: {} };
}

function parsePayload(body: string): z.infer<typeof payloadSchema> | null {
  const raw = new URLSearchParams(body).get("payload");
  if (!raw) return null;
  try {
    const parsed = payloadSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function parseValue(text: string | undefined): SlackButtonValue | null {
  if (!text) return null;
  try {
    const parsed = buttonValueSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The Zap user an admin linked this Slack user to, if active. */
async function linkedUser(db: Db, slackUserId: string) {
  const link = await db.slackUserLink.findUnique({ where: { slackUserId } });
  if (!link) return null;
  const user = await db.user.findUnique({ where: { id: link.userId }, select: { id: true, email: true, name: true, role: true, disabledAt: true } });
  if (!user || user.disabledAt || !isRole(user.role)) return null;
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

/** A message only the clicking Slack user sees (chat.postEphemeral); a failure to tell is logged, not thrown. */
async function ephemeral(slack: SlackConfig, channel: string | undefined, slackUserId: string, text: string): Promise<void> {
  if (!channel) return;
  await slackApi(slack, "chat.postEphemeral", { channel, user: slackUserId, text }).catch((error: unknown) => {
    console.error(`slack: could not tell ${slackUserId}: ${error instanceof Error ? error.message : String(error)}`);
  });
}
