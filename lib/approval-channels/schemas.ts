// Browser-safe schemas of the approval channels' settings (lib/approval-channels/server/settings.ts):
// the admin page's actions, /api/approval-channels and the TypeScript client send these. Secrets go
// in and never come out: a read answers whether each is set (and a token's last four characters).
import { z } from "zod";

/** The fields an admin sets, each with the environment variable that wins over it when set. */
export const APPROVAL_CHANNEL_FIELDS = {
  smtpUrl: "ZAP_SMTP_URL",
  // The password is part of ZAP_SMTP_URL: with that variable set, both fields are the environment's.
  smtpPassword: "ZAP_SMTP_URL",
  smtpFrom: "ZAP_SMTP_FROM",
  emailTo: "ZAP_APPROVAL_EMAIL_TO",
  slackSigningSecret: "ZAP_SLACK_SIGNING_SECRET",
  slackBotToken: "ZAP_SLACK_BOT_TOKEN",
  slackChannel: "ZAP_SLACK_CHANNEL",
  slackApiUrl: "ZAP_SLACK_API_URL",
} as const;
export type ApprovalChannelField = keyof typeof APPROVAL_CHANNEL_FIELDS;

/** Fields stored sealed and never answered. */
export const SECRET_FIELDS = ["smtpPassword", "slackSigningSecret", "slackBotToken"] as const satisfies readonly ApprovalChannelField[];
export type SecretField = (typeof SECRET_FIELDS)[number];

export function isSecretField(field: ApprovalChannelField): field is SecretField {
  return (SECRET_FIELDS as readonly string[]).includes(field);
}

/** A URL with no password, query or fragment (the password has a field of its own, stored sealed). */
function plainUrl(protocols: RegExp, expected: string) {
  return z
    .url({ protocol: protocols, error: expected })
    .max(500, "at most 500 characters")
    .superRefine((text, ctx) => {
      if (!URL.canParse(text)) return; // the URL check above has said so
      const url = new URL(text);
      if (url.password) ctx.addIssue({ code: "custom", message: "put the password in its own field (it is stored encrypted), not in the URL" });
      if (url.search || url.hash) ctx.addIssue({ code: "custom", message: "no query or fragment (keep credentials out of the URL)" });
    });
}

export const smtpUrlSchema = plainUrl(/^smtps?$/, "expected an smtp:// or smtps:// URL, e.g. smtp://user@mail.example.com:587");
export const slackApiUrlSchema = plainUrl(/^https?$/, "expected an http(s) URL, e.g. https://slack.com/api").refine((text) => !URL.canParse(text) || !new URL(text).username, "no user name in the URL");
export const slackChannelSchema = z.string().regex(/^[#A-Za-z0-9_.-]{1,80}$/, "expected a Slack channel id or name, e.g. C0123ABCD");
const email = z.email({ error: "expected an email address" }).max(320);

/**
 * A change of the settings: an absent field is kept, null clears it, a value replaces it. A secret is only
 * ever replaced by a new value (or cleared): it is never read back.
 */
export const updateApprovalChannelsSchema = z.strictObject({
  smtpUrl: smtpUrlSchema.nullable().optional(),
  smtpPassword: z.string().min(1, "expected the password (leave the field out to keep the stored one)").max(500, "at most 500 characters").nullable().optional(),
  smtpFrom: email.nullable().optional(),
  emailTo: z.array(email).min(1, "expected at least one address (null: every user whose role may decide)").max(50, "at most 50 addresses").nullable().optional(),
  slackSigningSecret: z.string().min(16, "must be at least 16 characters (the Slack app's signing secret)").max(200, "at most 200 characters").nullable().optional(),
  slackBotToken: z.string().min(8, "must be at least 8 characters (a bot token, xoxb-…)").max(500, "at most 500 characters").nullable().optional(),
  slackChannel: slackChannelSchema.nullable().optional(),
  slackApiUrl: slackApiUrlSchema.nullable().optional(),
});
export type UpdateApprovalChannelsInput = z.infer<typeof updateApprovalChannelsSchema>;

export const readApprovalChannelsSchema = z.strictObject({});

/** A test message through one channel: an email to `to` over the effective SMTP settings, or a post to the Slack channel. */
export const sendApprovalChannelTestSchema = z.discriminatedUnion(
  "channel",
  [z.strictObject({ channel: z.literal("email"), to: email }), z.strictObject({ channel: z.literal("slack") })],
  { error: 'expected channel "email" (with to) or "slack"' },
);
export type SendApprovalChannelTestInput = z.infer<typeof sendApprovalChannelTestSchema>;

/** Where a field's effective value comes from: the environment (read-only on the page), the admin's setting, Slack's default, or nowhere. */
export type FieldSource = "env" | "settings" | "default" | null;

/** A plain field: its effective value (an SMTP URL shown without its password). */
export interface PlainFieldView<T> {
  source: FieldSource;
  value: T | null;
}

/** A secret: whether it is set, never its value (a Slack secret's last four characters at most). */
export interface SecretFieldView {
  source: FieldSource;
  set: boolean;
  last4: string | null;
}

/** What a read answers: each field, and whether each channel is complete. */
export interface ApprovalChannelsView {
  fields: {
    smtpUrl: PlainFieldView<string>;
    smtpPassword: SecretFieldView;
    smtpFrom: PlainFieldView<string>;
    emailTo: PlainFieldView<string[]>;
    slackSigningSecret: SecretFieldView;
    slackBotToken: SecretFieldView;
    slackChannel: PlainFieldView<string>;
    slackApiUrl: PlainFieldView<string>;
  };
  /** A channel sends when complete; `missing` names the fields it still needs. */
  email: { active: boolean; missing: ApprovalChannelField[] };
  slack: { active: boolean; missing: ApprovalChannelField[] };
  updatedAt: string | null;
  updatedBy: string | null;
}

/** What a test answers once the message went out. */
export interface ApprovalChannelTestResult {
  channel: "email" | "slack";
  /** The address or Slack channel it went to. */
  to: string;
}
