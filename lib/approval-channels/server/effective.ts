// The approval channels in effect: each field from its environment variable
// when set (the operator's word wins), else from the admin's settings
// (approval_channel_settings), Slack's Web API URL defaulting to slack.com.
// The one reader for the worker (emails, Slack posts, reminders) and the web
// server (Slack's signed clicks, the admin pages). Cached briefly per database
// client and configuration, dropped at once by an edit in this process; another
// process (the worker) sees an edit within CACHE_MS, without a restart.
// No "server-only" here: the worker (plain Node) loads it.
import type { Db } from "../../db/prisma";
import { DEFAULT_SLACK_API_URL, type AppConfig, type ApprovalChannelEnv } from "../../config/env";
import { keyRing } from "../../crypto/keys";
import { unsealWithRing } from "../../crypto/seal";
import type { ApprovalChannelField, FieldSource, SecretField } from "../schemas";

/** The settings' one row. */
export const SETTINGS_ID = "workspace";

/** How long read settings are reused: an edit made by another process applies after at most this. */
export const CACHE_MS = 5_000;

/** The configuration the channels are resolved from. */
export type ChannelConfig = Pick<AppConfig, "approvalChannels" | "egress" | "keyMaterial" | "encryptionKeys">;

/** The channels in effect, in the shape the environment alone gives (AppConfig.approvalChannels). */
export type EffectiveApprovalChannels = Pick<AppConfig["approvalChannels"], "linkBase" | "email" | "slack">;

/** The admin's settings with their secrets opened (server only); a secret that does not open is null and named in `unreadable`. */
export interface StoredChannelSettings {
  values: { [K in ApprovalChannelField]: K extends "emailTo" ? string[] | null : string | null };
  unreadable: SecretField[];
  updatedAt: Date | null;
  updatedById: string | null;
}

/** Each field's effective value and where it comes from. */
export type ResolvedFields = { [K in ApprovalChannelField]: { source: FieldSource; value: K extends "emailTo" ? string[] | null : string | null } };

export interface ResolvedChannels {
  fields: ResolvedFields;
  channels: EffectiveApprovalChannels;
  email: { active: boolean; missing: ApprovalChannelField[] };
  slack: { active: boolean; missing: ApprovalChannelField[] };
}

const EMPTY_VALUES: StoredChannelSettings["values"] = {
  smtpUrl: null,
  smtpPassword: null,
  smtpFrom: null,
  emailTo: null,
  slackSigningSecret: null,
  slackBotToken: null,
  slackChannel: null,
  slackApiUrl: null,
};

/** Reads the admin's settings now (no cache), opening the sealed secrets with the configured keys. */
export async function readStoredChannelSettings(db: Db, config: Pick<ChannelConfig, "keyMaterial" | "encryptionKeys">): Promise<StoredChannelSettings> {
  const row = await db.approvalChannelSettings.findUnique({ where: { id: SETTINGS_ID } });
  if (!row) return { values: { ...EMPTY_VALUES }, unreadable: [], updatedAt: null, updatedById: null };
  const ring = keyRing(config, "approval-channel-secrets");
  const unreadable: SecretField[] = [];
  const open = (field: SecretField): string | null => {
    const sealed = row[field];
    if (!sealed) return null;
    try {
      return unsealWithRing(ring, "approval-channel-secrets", sealed);
    } catch (error) {
      // A rotated-away key: the channel lacks the secret until an admin sets it again; the reason is logged, never the value.
      console.error(`approval channels: the stored ${field} does not open: ${error instanceof Error ? error.message : String(error)}`);
      unreadable.push(field);
      return null;
    }
  };
  const values = {
    smtpUrl: row.smtpUrl,
    smtpPassword: open("smtpPassword"),
    smtpFrom: row.smtpFrom,
    emailTo: row.emailTo ? row.emailTo.split(",").filter(Boolean) : null,
    slackSigningSecret: open("slackSigningSecret"),
    slackBotToken: open("slackBotToken"),
    slackChannel: row.slackChannel,
    slackApiUrl: row.slackApiUrl,
  };
  return { values, unreadable, updatedAt: row.updatedAt, updatedById: row.updatedById };
}

/** The password inside an SMTP URL, decoded; null when it has none. */
function passwordOf(smtpUrl: string): string | null {
  const password = new URL(smtpUrl).password;
  return password ? decodeURIComponent(password) : null;
}

/** An SMTP URL with the password put back in (the admin's URL is stored without it). */
function withPassword(smtpUrl: string, password: string | null): string {
  if (!password) return smtpUrl;
  const url = new URL(smtpUrl);
  url.password = encodeURIComponent(password);
  return url.toString();
}

/** Environment over settings, field by field; which channels are complete, and what each still needs. */
export function resolveChannels(config: ChannelConfig, stored: StoredChannelSettings["values"]): ResolvedChannels {
  const env: ApprovalChannelEnv = config.approvalChannels.fromEnv;
  const pick = <T>(fromEnv: T | null, fromSettings: T | null): { source: FieldSource; value: T | null } =>
    fromEnv !== null ? { source: "env", value: fromEnv } : fromSettings !== null ? { source: "settings", value: fromSettings } : { source: null, value: null };
  const fields: ResolvedFields = {
    smtpUrl: pick(env.smtpUrl, stored.smtpUrl),
    // ZAP_SMTP_URL carries its own password (or none): with it set, the stored password does not apply.
    smtpPassword: env.smtpUrl !== null ? { source: "env", value: passwordOf(env.smtpUrl) } : pick(null, stored.smtpPassword),
    smtpFrom: pick(env.smtpFrom, stored.smtpFrom),
    emailTo: pick(env.emailTo, stored.emailTo),
    slackSigningSecret: pick(env.slackSigningSecret, stored.slackSigningSecret),
    slackBotToken: pick(env.slackBotToken, stored.slackBotToken),
    slackChannel: pick(env.slackChannel, stored.slackChannel),
    slackApiUrl: env.slackApiUrl !== null || stored.slackApiUrl !== null ? pick(env.slackApiUrl, stored.slackApiUrl) : { source: "default", value: DEFAULT_SLACK_API_URL },
  };
  const missing = (names: ApprovalChannelField[]) => names.filter((name) => fields[name].value === null);
  const emailMissing = missing(["smtpUrl", "smtpFrom"]);
  const slackMissing = missing(["slackSigningSecret", "slackBotToken", "slackChannel"]);
  const smtpUrl = fields.smtpUrl.value;
  const email =
    emailMissing.length === 0 && smtpUrl && fields.smtpFrom.value
      ? { smtpUrl: fields.smtpUrl.source === "env" ? smtpUrl : withPassword(smtpUrl, fields.smtpPassword.value), from: fields.smtpFrom.value, to: fields.emailTo.value }
      : null;
  const { slackSigningSecret, slackBotToken, slackChannel, slackApiUrl } = fields;
  const slack =
    slackMissing.length === 0 && slackSigningSecret.value && slackBotToken.value && slackChannel.value
      ? { signingSecret: slackSigningSecret.value, botToken: slackBotToken.value, channel: slackChannel.value, apiUrl: slackApiUrl.value ?? DEFAULT_SLACK_API_URL, allowHosts: config.egress.allowHosts }
      : null;
  return {
    fields,
    channels: { linkBase: config.approvalChannels.linkBase, email, slack },
    email: { active: email !== null, missing: emailMissing },
    slack: { active: slack !== null, missing: slackMissing },
  };
}

/** The channels in effect now (no cache). */
export async function readEffectiveApprovalChannels(db: Db, config: ChannelConfig): Promise<EffectiveApprovalChannels> {
  return resolveChannels(config, (await readStoredChannelSettings(db, config)).values).channels;
}

// One cache per process, on globalThis: Next builds each page, route handler and server action as a bundle of
// its own, each with its own copy of this module, and an edit must reach all of them.
type Entry = { at: number; channels: Promise<EffectiveApprovalChannels> };
const holder = globalThis as typeof globalThis & { zapApprovalChannels?: WeakMap<object, WeakMap<object, Entry>> };
const cache = (holder.zapApprovalChannels ??= new WeakMap());

/** The channels in effect, read at most once per CACHE_MS per client and configuration. A failed read is not kept. */
export function effectiveApprovalChannels(db: Db, config: ChannelConfig, now: number = Date.now()): Promise<EffectiveApprovalChannels> {
  let byConfig = cache.get(db);
  if (!byConfig) cache.set(db, (byConfig = new WeakMap()));
  const hit = byConfig.get(config);
  if (hit && now - hit.at < CACHE_MS) return hit.channels;
  const channels = readEffectiveApprovalChannels(db, config);
  const entry = { at: now, channels };
  byConfig.set(config, entry);
  void channels.catch(() => {
    if (byConfig.get(config) === entry) byConfig.delete(config);
  });
  return channels;
}

/** Drops a client's cached channels (after an edit), so the next read sees the edit. */
export function invalidateApprovalChannels(db: Db): void {
  cache.delete(db);
}

