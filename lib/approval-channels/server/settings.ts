import "server-only";
// The approval channels' settings, one operation each (schema, permission, act
// and audit), from which the admin page's actions, /api/approval-channels and
// the client are built. Admins only, reads included (the settings name the mail
// server and the Slack workspace). Secrets are sealed at rest, never answered
// (a read says "set", a Slack secret's last four characters at most), and only
// replaced by a new value; a field its environment variable sets is refused
// (the environment wins, docs/approvals-channels.md). An edit applies at once in
// this process and within a few seconds in the worker (server/effective.ts).
import nodemailer from "nodemailer";
import { getDb } from "../../db/server/db";
import { getConfig } from "../../config/server/config";
import { writeTransaction } from "../../db/transactions";
import { appendAudit, appendAuditInTransaction } from "../../audit/write";
import { AppError, ConflictError, ValidationError, type FieldIssue } from "../../errors";
import { operation } from "../../http/server/operation";
import { keyRing, MissingKeyError } from "../../crypto/keys";
import { sealWithRing } from "../../crypto/seal";
import { slackApi } from "../slack-api";
import {
  APPROVAL_CHANNEL_FIELDS,
  isSecretField,
  readApprovalChannelsSchema,
  sendApprovalChannelTestSchema,
  updateApprovalChannelsSchema,
  type ApprovalChannelField,
  type ApprovalChannelsView,
  type ApprovalChannelTestResult,
  type SecretFieldView,
  type UpdateApprovalChannelsInput,
} from "../schemas";
import { invalidateApprovalChannels, readStoredChannelSettings, resolveChannels, SETTINGS_ID, type ChannelConfig, type ResolvedFields } from "./effective";

const FIELD_NAMES = Object.keys(APPROVAL_CHANNEL_FIELDS) as ApprovalChannelField[];

/** A secret's view: set or not; a Slack secret's last four characters when it is long enough that they give nothing away. */
function secretView(field: ApprovalChannelField, resolved: { source: ResolvedFields["smtpPassword"]["source"]; value: string | null }): SecretFieldView {
  const value = resolved.value;
  const last4 = field !== "smtpPassword" && value && value.length >= 16 ? value.slice(-4) : null;
  return { source: value === null ? null : resolved.source, set: value !== null, last4 };
}

/** An SMTP URL as shown: without a password (ZAP_SMTP_URL carries one). */
function shownSmtpUrl(url: string | null): string | null {
  if (!url) return null;
  const parsed = new URL(url);
  parsed.password = "";
  return parsed.toString();
}

/** The settings as an admin reads them: every field with its source, never a secret's value. */
export async function readApprovalChannels(db = getDb(), config: ChannelConfig = getConfig()): Promise<ApprovalChannelsView> {
  const stored = await readStoredChannelSettings(db, config);
  const resolved = resolveChannels(config, stored.values);
  const { fields } = resolved;
  const updatedBy = stored.updatedById ? ((await db.user.findUnique({ where: { id: stored.updatedById }, select: { email: true } }))?.email ?? "(deleted user)") : null;
  return {
    fields: {
      smtpUrl: { source: fields.smtpUrl.source, value: shownSmtpUrl(fields.smtpUrl.value) },
      smtpPassword: secretView("smtpPassword", fields.smtpPassword),
      smtpFrom: fields.smtpFrom,
      emailTo: fields.emailTo,
      slackSigningSecret: secretView("slackSigningSecret", fields.slackSigningSecret),
      slackBotToken: secretView("slackBotToken", fields.slackBotToken),
      slackChannel: fields.slackChannel,
      slackApiUrl: fields.slackApiUrl,
    },
    email: resolved.email,
    slack: resolved.slack,
    updatedAt: stored.updatedAt?.toISOString() ?? null,
    updatedBy,
  };
}

/** Whether the environment sets this field (the page shows it read-only; an update of it is refused). */
function setByEnv(config: ChannelConfig, field: ApprovalChannelField): boolean {
  const env = config.approvalChannels.fromEnv;
  return (field === "smtpPassword" ? env.smtpUrl : env[field]) !== null;
}

/** The key that seals the secrets, or a 503 naming what to configure. */
function sealer(config: ChannelConfig): (plaintext: string) => string {
  const ring = keyRing(config, "approval-channel-secrets");
  return (plaintext) => {
    try {
      return sealWithRing(ring, "approval-channel-secrets", plaintext);
    } catch (error) {
      if (error instanceof MissingKeyError) throw new AppError("unavailable", 503, error.message);
      throw error;
    }
  };
}

/** Changes the settings: absent fields kept, null clears, a value replaces. Answers the fields changed and the settings after. */
export async function updateApprovalChannels(
  actor: { id: string },
  input: UpdateApprovalChannelsInput,
  db = getDb(),
  config: ChannelConfig = getConfig(),
): Promise<{ changed: ApprovalChannelField[]; settings: ApprovalChannelsView }> {
  const given = FIELD_NAMES.filter((field) => input[field] !== undefined);
  const fromEnv: FieldIssue[] = given
    .filter((field) => setByEnv(config, field))
    .map((field) => ({ path: field, message: `set by the environment (${APPROVAL_CHANNEL_FIELDS[field]}), which wins over this page: change it there` }));
  if (fromEnv.length) throw new ValidationError(fromEnv, "Some fields are set by the environment");
  const seal = sealer(config);
  const changed = await writeTransaction(db, async (tx) => {
    const before = await tx.approvalChannelSettings.findUnique({ where: { id: SETTINGS_ID } });
    const data: Partial<Record<ApprovalChannelField, string | null>> = {};
    const changed: ApprovalChannelField[] = [];
    for (const field of given) {
      const value = input[field];
      const text = value === null || value === undefined ? null : Array.isArray(value) ? value.join(",") : value;
      const previous = before?.[field] ?? null;
      // A secret is compared only by being set: writing one always replaces it (a new seal), and counts as a change.
      const differs = isSecretField(field) ? text !== null || previous !== null : text !== previous;
      if (!differs) continue;
      data[field] = text !== null && isSecretField(field) ? seal(text) : text;
      changed.push(field);
    }
    if (changed.length === 0) return changed;
    await tx.approvalChannelSettings.upsert({ where: { id: SETTINGS_ID }, create: { id: SETTINGS_ID, ...data, updatedById: actor.id }, update: { ...data, updatedById: actor.id } });
    // Which fields changed, and for a plain field its new value; a secret only as "set" or "cleared".
    const values = Object.fromEntries(changed.map((field) => [field, isSecretField(field) ? (data[field] === null ? "cleared" : "set") : (data[field] ?? null)]));
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "approval_channels.updated", target: "approval-channels", details: { changed, values } });
    return changed;
  });
  invalidateApprovalChannels(db);
  return { changed, settings: await readApprovalChannels(db, config) };
}

const FIELD_WORDS: Record<ApprovalChannelField, string> = {
  smtpUrl: "the SMTP URL",
  smtpPassword: "the SMTP password",
  smtpFrom: "the sender",
  emailTo: "the recipients",
  slackSigningSecret: "the signing secret",
  slackBotToken: "the bot token",
  slackChannel: "the channel",
  slackApiUrl: "the Web API URL",
};

/** "the SMTP URL and the sender": the fields a channel still needs, in words. */
function wordsFor(fields: ApprovalChannelField[]): string {
  const words = fields.map((f) => FIELD_WORDS[f]);
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words.at(-1)}` : (words[0] ?? "");
}

/** An error's words with every configured secret blanked out, and the connection-level cause (ECONNREFUSED, …) when there is one. */
function sayWithout(error: unknown, secrets: (string | null | undefined)[]): string {
  const cause = error instanceof Error && error.cause && typeof error.cause === "object" && "code" in error.cause ? ` (${String(error.cause.code)})` : "";
  const code = error instanceof Error && "code" in error && typeof error.code === "string" && !cause ? ` (${error.code})` : "";
  let text = `${error instanceof Error ? error.message : String(error)}${cause || code}`;
  for (const secret of secrets) {
    if (!secret) continue;
    text = text.split(secret).join("••••");
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) text = text.split(encoded).join("••••");
  }
  return text.slice(0, 500);
}

/** Sends a test message through one channel with the settings in effect now; a refusal says why, without a secret. */
export async function sendApprovalChannelTest(
  actor: { id: string; email: string },
  input: { channel: "email"; to: string } | { channel: "slack" },
  db = getDb(),
  config: ChannelConfig = getConfig(),
): Promise<ApprovalChannelTestResult> {
  const stored = await readStoredChannelSettings(db, config);
  const resolved = resolveChannels(config, stored.values);
  const { email, slack } = resolved.channels;
  const secrets = [resolved.fields.smtpPassword.value, resolved.fields.slackBotToken.value, resolved.fields.slackSigningSecret.value];
  const when = new Date().toISOString().replace("T", " ").slice(0, 19);
  const text = `A test of Zap Studio's approval ${input.channel === "email" ? "emails" : "messages in Slack"}, sent by ${actor.email} from Admin → Approval channels at ${when} UTC. Approvals will arrive like this.`;
  const record = (to: string, failed: string | null) =>
    appendAudit(db, { actorId: actor.id, action: "approval_channels.tested", target: input.channel, details: { to, ok: failed === null, ...(failed ? { error: failed } : {}) } });

  if (input.channel === "email") {
    if (!email) throw new ConflictError(`Email is not configured: set ${wordsFor(resolved.email.missing)} first`);
    const transport = nodemailer.createTransport({ url: email.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 10_000 });
    try {
      await transport.sendMail({ from: email.from, to: input.to, subject: "Zap Studio: test of approval emails", text, headers: { "X-Zap-Event": "approval_channels.test" } });
    } catch (error) {
      const said = sayWithout(error, secrets);
      await record(input.to, said);
      throw new AppError("unavailable", 503, `The test email did not go out: ${said}`);
    } finally {
      transport.close();
    }
    await record(input.to, null);
    return { channel: "email", to: input.to };
  }

  if (!slack) throw new ConflictError(`Slack is not configured: set ${wordsFor(resolved.slack.missing)} first`);
  try {
    await slackApi(slack, "chat.postMessage", { channel: slack.channel, text });
  } catch (error) {
    const said = sayWithout(error, secrets);
    await record(slack.channel, said);
    throw new AppError("unavailable", 503, `The test message did not reach Slack: ${said}`);
  }
  await record(slack.channel, null);
  return { channel: "slack", to: slack.channel };
}

/** Admins only: the settings, every field with its source; never a secret. */
export const readApprovalChannelsOperation = operation({
  name: "read-approval-channels",
  permission: "users:manage",
  input: readApprovalChannelsSchema,
  run: async () => readApprovalChannels(),
});

/** Admins only: changes the settings; audited with the fields changed (a secret only as set or cleared). */
export const updateApprovalChannelsOperation = operation({
  name: "update-approval-channels",
  permission: "users:manage",
  input: updateApprovalChannelsSchema,
  run: async ({ input, user }) => updateApprovalChannels(user, input),
});

/** Admins only: a test message through one channel with the settings in effect; audited. */
export const sendApprovalChannelTestOperation = operation({
  name: "send-approval-channel-test",
  permission: "users:manage",
  input: sendApprovalChannelTestSchema,
  run: async ({ input, user }) => sendApprovalChannelTest(user, input),
});
