"use client";
// An approval's reminder and escalation (docs/approvals-channels.md): two
// optional delays in minutes and who hears of the escalation — an approval
// rule's, a graph's budget asks' (limits.budgetReminders) and its plan
// approval's (plan.approvalReminders). Each field's message comes from the
// engine's validator (zod per field, then lib/agents/approval-timing.ts across
// them), like every inspector field.
import type { ApprovalReminders } from "@/lib/agents/schemas";
import type { GraphIssue } from "@/lib/agents/validate";
import { ROLES, can } from "@/lib/access/roles";
import { Field, INPUT } from "./fields";

type MinutesField = "remindAfterMinutes" | "escalateAfterMinutes";
const SLACK_PREFIX = "slack:";
/** The select's value for a Slack channel (never a role's name: roles are lowercase words without a colon). */
const SLACK_CHOICE = "slack";
/** Roles whose users may decide approvals: the ones worth escalating to. */
const DECIDING_ROLES = ROLES.filter((role) => can(role, "approvals:decide"));

/** The rule (or setting) without `field` when the input is empty (the setting is off), else with the number typed (NaN for a partial value, so the validator names the field). */
export function withMinutes<T extends ApprovalReminders>(rule: T, field: MinutesField, raw: string): T {
  if (raw.trim() === "") {
    const { [field]: _off, ...rest } = rule;
    return rest as T;
  }
  return { ...rule, [field]: Number(raw) };
}

/** What the "Escalate to" select shows for a rule: nobody, a role, or a Slack channel. */
export function escalationChoice(escalateTo: string | undefined): string {
  if (escalateTo === undefined) return "";
  return escalateTo.startsWith(SLACK_PREFIX) ? SLACK_CHOICE : escalateTo;
}

/**
 * The rule after choosing in the select: no escalation drops `escalateTo`; a role
 * sets it; a Slack channel keeps the channel already typed (or starts empty,
 * which the validator refuses until one is typed).
 */
export function withEscalationChoice<T extends ApprovalReminders>(rule: T, choice: string): T {
  const { escalateTo: current, ...rest } = rule;
  if (choice === "") return rest as T;
  if (choice === SLACK_CHOICE) return { ...rule, escalateTo: current?.startsWith(SLACK_PREFIX) ? current : SLACK_PREFIX };
  return { ...rule, escalateTo: choice as ApprovalReminders["escalateTo"] };
}

/** The rule with the Slack channel typed (`#` or an id like C0123ABCD). */
export function withSlackChannel<T extends ApprovalReminders>(rule: T, channel: string): T {
  return { ...rule, escalateTo: `${SLACK_PREFIX}${channel.trim()}` };
}

/**
 * A budget ask's or plan approval's setting as the graph keeps it: absent once
 * every field is off, so clearing the fields leaves the graph as it was.
 */
export function remindersOrNone(value: ApprovalReminders): ApprovalReminders | undefined {
  return value.remindAfterMinutes === undefined && value.escalateAfterMinutes === undefined && value.escalateTo === undefined ? undefined : value;
}

function MinutesInput({ id, value, disabled, onChange }: { id: string; value: number | undefined; disabled: boolean; onChange: (raw: string) => void }) {
  return (
    <input
      id={id}
      type="number"
      inputMode="numeric"
      min={1}
      step={1}
      placeholder="off"
      aria-describedby={`${id}-hint`}
      className={INPUT}
      value={value === undefined || !Number.isFinite(value) ? "" : value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

export function ApprovalReminderFields<T extends ApprovalReminders>(props: {
  /** An approval rule, or a graph's budgetReminders / approvalReminders (`{}` when off). */
  rule: T;
  /** Prefix of the fields' ids: `rule-1`, `budget`, `plan-approval`. */
  idPrefix: string;
  /** Whose reminder it is, for the group's name: `rule 2`, `the budget request`. */
  subject: string;
  /** The setting's path in the graph (`agents[0].approvalRules[1]`, `limits.budgetReminders`), for the validator's messages. */
  base: string;
  issues: { errors: readonly GraphIssue[]; warnings: readonly GraphIssue[] };
  readOnly: boolean;
  set: (rule: T, field: string) => void;
}) {
  const { rule, idPrefix, subject, base, issues, readOnly, set } = props;
  const choice = escalationChoice(rule.escalateTo);
  // A stored role that cannot decide approvals stays visible as what it is (the select would otherwise show another).
  const roles: string[] = choice && choice !== SLACK_CHOICE && !DECIDING_ROLES.some((role) => role === choice) ? [...DECIDING_ROLES, choice] : [...DECIDING_ROLES];
  return (
    <div className="space-y-2" role="group" aria-label={`Reminder and escalation of ${subject}`}>
      <div className="grid grid-cols-2 gap-2">
        <Field id={`${idPrefix}-remind`} label="Remind after (min)" path={`${base}.remindAfterMinutes`} issues={issues}>
          <MinutesInput id={`${idPrefix}-remind`} value={rule.remindAfterMinutes} disabled={readOnly} onChange={(raw) => set(withMinutes(rule, "remindAfterMinutes", raw), "remind")} />
        </Field>
        <Field id={`${idPrefix}-escalate`} label="Escalate after (min)" path={`${base}.escalateAfterMinutes`} issues={issues}>
          <MinutesInput id={`${idPrefix}-escalate`} value={rule.escalateAfterMinutes} disabled={readOnly} onChange={(raw) => set(withMinutes(rule, "escalateAfterMinutes", raw), "escalate")} />
        </Field>
      </div>
      <p id={`${idPrefix}-remind-hint`} className="text-xs text-zinc-500">
        Whole minutes without a decision; empty is off. The reminder goes to the request&apos;s email and Slack once.
      </p>
      <p id={`${idPrefix}-escalate-hint`} className="sr-only">
        Whole minutes without a decision before escalating once; empty is off.
      </p>
      <Field id={`${idPrefix}-escalate-to`} label="Escalate to" path={`${base}.escalateTo`} issues={issues}>
        <select id={`${idPrefix}-escalate-to`} className={INPUT} value={choice} disabled={readOnly} onChange={(e) => set(withEscalationChoice(rule, e.target.value), "escalateTo")}>
          <option value="">no escalation</option>
          {roles.map((role) => (
            <option key={role} value={role}>
              {DECIDING_ROLES.some((d) => d === role) ? `every ${role} (email)` : `${role} (cannot decide approvals)`}
            </option>
          ))}
          <option value={SLACK_CHOICE}>a Slack channel…</option>
        </select>
        {choice === SLACK_CHOICE ? (
          <div className="mt-1">
            <label htmlFor={`${idPrefix}-slack-channel`} className="mb-0.5 block text-xs font-medium text-zinc-700">
              Slack channel
            </label>
            <input
              id={`${idPrefix}-slack-channel`}
              className={`${INPUT} font-mono`}
              placeholder="C0123ABCD"
              value={(rule.escalateTo ?? "").slice(SLACK_PREFIX.length)}
              disabled={readOnly}
              onChange={(e) => set(withSlackChannel(rule, e.target.value), "slackChannel")}
            />
          </div>
        ) : null}
      </Field>
    </div>
  );
}
