"use client";
import { useState, useTransition, type FormEvent } from "react";
import { updateApprovalChannelsAction } from "@/lib/actions/update-approval-channels";
import { sendApprovalChannelTestAction } from "@/lib/actions/send-approval-channel-test";
import { APPROVAL_CHANNEL_FIELDS, isSecretField, type ApprovalChannelField, type ApprovalChannelsView, type UpdateApprovalChannelsInput } from "@/lib/approval-channels/schemas";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Input, Label } from "@/components/ui/input";
import { DateTime } from "@/components/ui/date-time";

type Message = { tone: "error" | "success"; text: string };

const LABELS: Record<ApprovalChannelField, string> = {
  smtpUrl: "SMTP URL",
  smtpPassword: "SMTP password",
  smtpFrom: "Sender (From)",
  emailTo: "Recipients",
  slackSigningSecret: "Signing secret",
  slackBotToken: "Bot token",
  slackChannel: "Channel",
  slackApiUrl: "Web API URL",
};

const PLACEHOLDERS: Partial<Record<ApprovalChannelField, string>> = {
  smtpUrl: "smtp://approvals@mail.example.com:587",
  smtpFrom: "zap@example.com",
  emailTo: "blank: everyone whose role may decide",
  slackBotToken: "xoxb-…",
  slackChannel: "C0123ABCD",
  slackApiUrl: "https://slack.com/api",
};

const EMAIL_FIELDS: ApprovalChannelField[] = ["smtpUrl", "smtpPassword", "smtpFrom", "emailTo"];
const SLACK_FIELDS: ApprovalChannelField[] = ["slackSigningSecret", "slackBotToken", "slackChannel", "slackApiUrl"];

/** What a field says of itself: set by the environment, set (a Slack secret's last four), or not set. */
function statusOf(view: ApprovalChannelsView, field: ApprovalChannelField): string {
  const state = view.fields[field];
  if (state.source === "env") return `set by the environment (${APPROVAL_CHANNEL_FIELDS[field]})`;
  if ("set" in state) return state.set ? (state.last4 ? `set (…${state.last4})` : "set") : "not set";
  if (state.source === "default") return "default";
  return state.value === null ? "not set" : "set";
}

/** A plain field's text as shown. */
function shown(view: ApprovalChannelsView, field: ApprovalChannelField): string {
  const state = view.fields[field];
  if ("set" in state || state.source === "default" || state.value === null) return "";
  return Array.isArray(state.value) ? state.value.join(", ") : state.value;
}

/** The form's changes: a plain field as typed (blank clears), a secret only when typed (blank keeps), env fields never. */
function changesFrom(form: FormData, view: ApprovalChannelsView, fields: ApprovalChannelField[]): UpdateApprovalChannelsInput {
  const input: Record<string, unknown> = {};
  for (const field of fields) {
    if (view.fields[field].source === "env") continue;
    const raw = String(form.get(field) ?? "");
    if (isSecretField(field)) {
      if (raw !== "") input[field] = raw;
      continue;
    }
    const text = raw.trim();
    if (field === "emailTo") input[field] = text ? text.split(",").map((a) => a.trim()).filter(Boolean) : null;
    else if (field === "slackApiUrl" && !text && view.fields.slackApiUrl.source !== "settings") continue;
    else input[field] = text || null;
  }
  return input as UpdateApprovalChannelsInput;
}

/** Email and Slack settings of approvals, each with its save and test buttons. */
export function ApprovalChannelsForm({ initial }: { initial: ApprovalChannelsView }) {
  const [view, setView] = useState(initial);
  const [message, setMessage] = useState<Message | null>(null);
  const [issues, setIssues] = useState<Partial<Record<string, string>>>({});
  const [pending, startTransition] = useTransition();

  const save = (input: UpdateApprovalChannelsInput, what: string) =>
    startTransition(async () => {
      const result = await updateApprovalChannelsAction(input);
      if (!result.ok) {
        const list = result.error.issues ?? [];
        setIssues(Object.fromEntries(list.map((i) => [i.path, i.message])));
        const words = list.map((i) => `${LABELS[i.path as ApprovalChannelField] ?? i.path}: ${i.message}`);
        setMessage({ tone: "error", text: words.length ? words.join("; ") : result.error.message });
        return;
      }
      setIssues({});
      setView(result.data.settings);
      const changed = result.data.changed.map((f) => LABELS[f]);
      setMessage({ tone: "success", text: changed.length ? `${what} saved: ${changed.join(", ")} changed.` : `${what}: nothing changed.` });
    });

  const submit = (fields: ApprovalChannelField[], what: string) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save(changesFrom(new FormData(event.currentTarget), view, fields), what);
  };

  const sendTest = (input: { channel: "email"; to: string } | { channel: "slack" }) =>
    startTransition(async () => {
      const result = await sendApprovalChannelTestAction(input);
      if (!result.ok) {
        const issue = result.error.issues?.[0];
        setMessage({ tone: "error", text: issue ? `${issue.path}: ${issue.message}` : result.error.message });
        return;
      }
      setMessage({ tone: "success", text: result.data.channel === "email" ? `A test email went to ${result.data.to}.` : `A test message went to Slack channel ${result.data.to}.` });
    });

  const field = (name: ApprovalChannelField) => {
    const state = view.fields[name];
    const fromEnv = state.source === "env";
    const secret = isSecretField(name);
    const id = `channel-${name}`;
    const status = statusOf(view, name);
    return (
      <div key={name}>
        <Label htmlFor={id}>{LABELS[name]}</Label>
        <div className="flex items-center gap-2">
          <Input
            id={id}
            name={name}
            type={secret ? "password" : name === "smtpFrom" ? "email" : "text"}
            autoComplete={secret ? "new-password" : "off"}
            defaultValue={secret ? undefined : shown(view, name)}
            placeholder={secret ? (status.startsWith("set") ? "set: type a new value to replace it" : "") : PLACEHOLDERS[name]}
            disabled={fromEnv || pending}
            aria-describedby={`${id}-status`}
            aria-invalid={issues[name] ? true : undefined}
          />
          {secret && !fromEnv && state.source === "settings" && (
            <Button type="button" variant="secondary" disabled={pending} onClick={() => save({ [name]: null } as UpdateApprovalChannelsInput, LABELS[name])} aria-label={`Remove the ${LABELS[name]}`}>
              Remove
            </Button>
          )}
        </div>
        <p id={`${id}-status`} className="mt-1 text-xs text-zinc-500" data-testid={`field-status-${name}`}>
          {status}
        </p>
        {issues[name] && <p className="mt-1 text-xs text-red-700">{issues[name]}</p>}
      </div>
    );
  };

  const channelState = (state: { active: boolean; missing: ApprovalChannelField[] }) =>
    state.active ? <Badge tone="success">on</Badge> : <Badge tone="neutral">{`off${state.missing.length ? `: needs ${state.missing.map((f) => LABELS[f]).join(", ")}` : ""}`}</Badge>;

  return (
    <div className="space-y-6">
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      <Card>
        <CardHeader title="Email" description="Approval requests, reminders and outcomes by email. The password is stored encrypted; keep it out of the URL." action={channelState(view.email)} />
        <CardBody className="space-y-4">
          <form key={`email-${view.updatedAt ?? ""}`} onSubmit={submit(EMAIL_FIELDS, "Email settings")} aria-label="Email settings" className="grid grid-cols-1 gap-3 md:grid-cols-2">
            {EMAIL_FIELDS.map(field)}
            <div className="md:col-span-2">
              <Button type="submit" disabled={pending}>
                Save email settings
              </Button>
            </div>
          </form>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              sendTest({ channel: "email", to: String(new FormData(event.currentTarget).get("to") ?? "").trim() });
            }}
            aria-label="Test email"
            className="flex flex-wrap items-end gap-3 border-t border-zinc-200 pt-4"
          >
            <div className="min-w-64">
              <Label htmlFor="channel-test-to">Send a test email to</Label>
              <Input id="channel-test-to" name="to" type="email" placeholder="you@example.com" required />
            </div>
            <Button type="submit" variant="secondary" disabled={pending}>
              Send test email
            </Button>
          </form>
        </CardBody>
      </Card>
      <Card>
        <CardHeader
          title="Slack"
          description="Approvals posted to a channel with Approve and Reject buttons. Set the Slack app's interactivity URL to <your address>/api/slack/interactions, and link Slack members on Admin → Slack."
          action={channelState(view.slack)}
        />
        <CardBody className="space-y-4">
          <form key={`slack-${view.updatedAt ?? ""}`} onSubmit={submit(SLACK_FIELDS, "Slack settings")} aria-label="Slack settings" className="grid grid-cols-1 gap-3 md:grid-cols-2">
            {SLACK_FIELDS.map(field)}
            <div className="md:col-span-2">
              <Button type="submit" disabled={pending}>
                Save Slack settings
              </Button>
            </div>
          </form>
          <div className="border-t border-zinc-200 pt-4">
            <Button type="button" variant="secondary" disabled={pending} onClick={() => sendTest({ channel: "slack" })}>
              Send test message
            </Button>
          </div>
        </CardBody>
      </Card>
      {view.updatedBy && view.updatedAt && (
        <p className="text-xs text-zinc-500">
          Last changed by {view.updatedBy} at <DateTime value={view.updatedAt} />.
        </p>
      )}
    </div>
  );
}
