// The approval channels' settings: what an update accepts (strict, with messages
// naming the problem) and how the environment and the admin's settings combine,
// field by field, into the channels in effect.
import { describe, expect, it } from "vitest";
import { parseEnv } from "../config/env";
import { sendApprovalChannelTestSchema, updateApprovalChannelsSchema } from "./schemas";
import { resolveChannels, type StoredChannelSettings } from "./server/effective";

const issuesOf = (input: unknown, schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } } = updateApprovalChannelsSchema) => {
  const parsed = schema.safeParse(input);
  return parsed.success ? [] : (parsed.error?.issues ?? []).map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("updateApprovalChannelsSchema", () => {
  it("accepts a partial change, null as clearing, and every field at once", () => {
    expect(issuesOf({})).toEqual([]);
    expect(issuesOf({ smtpUrl: null, slackBotToken: null })).toEqual([]);
    expect(
      issuesOf({
        smtpUrl: "smtps://approvals@mail.example.com:465",
        smtpPassword: "p@ss word",
        smtpFrom: "zap@example.com",
        emailTo: ["a@example.com", "b@example.com"],
        slackSigningSecret: "0123456789abcdef0123",
        slackBotToken: "xoxb-1-2-3",
        slackChannel: "C0123ABCD",
        slackApiUrl: "https://slack.com/api",
      }),
    ).toEqual([]);
  });

  it("refuses unknown keys and says what is wrong with each bad value", () => {
    expect(issuesOf({ smtpHost: "x" })).toEqual([expect.stringMatching(/Unrecognized key.*smtpHost/)]);
    expect(issuesOf({ smtpUrl: "http://mail.example.com" })).toEqual(["smtpUrl: expected an smtp:// or smtps:// URL, e.g. smtp://user@mail.example.com:587"]);
    expect(issuesOf({ smtpUrl: "not a url" })).toEqual(["smtpUrl: expected an smtp:// or smtps:// URL, e.g. smtp://user@mail.example.com:587"]);
    expect(issuesOf({ smtpUrl: "smtp://me:secret@mail.example.com" })).toEqual(["smtpUrl: put the password in its own field (it is stored encrypted), not in the URL"]);
    expect(issuesOf({ smtpUrl: "smtp://mail.example.com/?pass=x" })).toEqual(["smtpUrl: no query or fragment (keep credentials out of the URL)"]);
    expect(issuesOf({ smtpFrom: "not-an-address" })).toEqual(["smtpFrom: expected an email address"]);
    expect(issuesOf({ emailTo: [] })).toEqual(["emailTo: expected at least one address (null: every user whose role may decide)"]);
    expect(issuesOf({ emailTo: ["ok@example.com", "nope"] })).toEqual(["emailTo.1: expected an email address"]);
    expect(issuesOf({ smtpPassword: "" })).toEqual(["smtpPassword: expected the password (leave the field out to keep the stored one)"]);
    expect(issuesOf({ slackSigningSecret: "short" })).toEqual(["slackSigningSecret: must be at least 16 characters (the Slack app's signing secret)"]);
    expect(issuesOf({ slackBotToken: "xoxb" })).toEqual(["slackBotToken: must be at least 8 characters (a bot token, xoxb-…)"]);
    expect(issuesOf({ slackChannel: "general channel" })).toEqual(["slackChannel: expected a Slack channel id or name, e.g. C0123ABCD"]);
    expect(issuesOf({ slackApiUrl: "ftp://slack.example" })).toEqual(["slackApiUrl: expected an http(s) URL, e.g. https://slack.com/api"]);
    expect(issuesOf({ slackApiUrl: "https://bot:token@slack.example/api" })).toEqual([expect.stringMatching(/^slackApiUrl: put the password/), "slackApiUrl: no user name in the URL"]);
    expect(issuesOf({ slackChannel: 42 })).toEqual([expect.stringMatching(/^slackChannel: /)]);
  });
});

describe("sendApprovalChannelTestSchema", () => {
  it("takes an email test with its address, a Slack test alone, and nothing else", () => {
    expect(issuesOf({ channel: "email", to: "me@example.com" }, sendApprovalChannelTestSchema)).toEqual([]);
    expect(issuesOf({ channel: "slack" }, sendApprovalChannelTestSchema)).toEqual([]);
    expect(issuesOf({ channel: "email" }, sendApprovalChannelTestSchema)).toEqual([expect.stringMatching(/^to: /)]);
    expect(issuesOf({ channel: "slack", to: "me@example.com" }, sendApprovalChannelTestSchema)).toEqual([expect.stringMatching(/Unrecognized key.*to/)]);
    expect(issuesOf({ channel: "pager" }, sendApprovalChannelTestSchema)).toEqual(['channel: expected channel "email" (with to) or "slack"']);
  });
});

const stored = (values: Partial<StoredChannelSettings["values"]>): StoredChannelSettings["values"] => ({
  smtpUrl: null,
  smtpPassword: null,
  smtpFrom: null,
  emailTo: null,
  slackSigningSecret: null,
  slackBotToken: null,
  slackChannel: null,
  slackApiUrl: null,
  ...values,
});

describe("resolveChannels: the environment over the admin's settings, field by field", () => {
  const bare = parseEnv({ AUTH_URL: "https://zap.example.com" });

  it("applies the settings alone, the password put back into the SMTP URL and Slack's API by default", () => {
    const resolved = resolveChannels(
      bare,
      stored({ smtpUrl: "smtp://approvals@mail.example.com:587", smtpPassword: "p@ss/word", smtpFrom: "zap@example.com", slackSigningSecret: "s".repeat(20), slackBotToken: "xoxb-token", slackChannel: "C1" }),
    );
    expect(resolved.channels.email).toEqual({ smtpUrl: "smtp://approvals:p%40ss%2Fword@mail.example.com:587", from: "zap@example.com", to: null });
    expect(resolved.channels.slack).toEqual({ signingSecret: "s".repeat(20), botToken: "xoxb-token", channel: "C1", apiUrl: "https://slack.com/api", allowHosts: [] });
    expect(resolved.fields.slackApiUrl).toEqual({ source: "default", value: "https://slack.com/api" });
    expect(resolved.channels.linkBase).toBe("https://zap.example.com");
  });

  it("says what an incomplete channel still needs, and keeps it off", () => {
    const resolved = resolveChannels(bare, stored({ smtpUrl: "smtp://mail.example.com", slackChannel: "C1" }));
    expect(resolved.email).toEqual({ active: false, missing: ["smtpFrom"] });
    expect(resolved.slack).toEqual({ active: false, missing: ["slackSigningSecret", "slackBotToken"] });
    expect(resolved.channels).toMatchObject({ email: null, slack: null });
  });

  it("lets each variable that is set win over its field, and ZAP_SMTP_URL bring its own password", () => {
    const config = parseEnv({ ZAP_SMTP_URL: "smtp://env:envpass@env-mail.example.com:25", ZAP_SMTP_FROM: "env@example.com", ZAP_SLACK_API_URL: "https://slack-proxy.example.com/api" });
    const resolved = resolveChannels(
      config,
      stored({ smtpUrl: "smtp://db@db-mail.example.com", smtpPassword: "dbpass", smtpFrom: "db@example.com", emailTo: ["db-to@example.com"], slackApiUrl: "https://db-slack.example.com/api", slackChannel: "CDB" }),
    );
    expect(resolved.channels.email).toEqual({ smtpUrl: "smtp://env:envpass@env-mail.example.com:25", from: "env@example.com", to: ["db-to@example.com"] });
    expect(resolved.fields.smtpPassword).toEqual({ source: "env", value: "envpass" });
    expect(resolved.fields.emailTo.source, "an unset variable leaves the setting in effect").toBe("settings");
    expect(resolved.fields.slackApiUrl).toEqual({ source: "env", value: "https://slack-proxy.example.com/api" });
    expect(resolved.fields.slackChannel).toEqual({ source: "settings", value: "CDB" });
  });

  it("is what the environment alone configured when nothing is stored (no behaviour change without settings)", () => {
    const config = parseEnv({ ZAP_SLACK_SIGNING_SECRET: "x".repeat(16), ZAP_SLACK_BOT_TOKEN: "xoxb-env", ZAP_SLACK_CHANNEL: "CENV", ZAP_SMTP_URL: "smtp://127.0.0.1:2525", ZAP_SMTP_FROM: "zap@zap.test" });
    const { channels } = resolveChannels(config, stored({}));
    expect(channels.email).toEqual(config.approvalChannels.email);
    expect(channels.slack).toEqual(config.approvalChannels.slack);
  });
});
