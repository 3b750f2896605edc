// Cross-field checks of an approval rule's reminder and escalation (the zod
// schema checks each field alone): the engine's validator runs them, so the
// designer shows them live and the server refuses the same saves.
import type { ApprovalRule } from "./schemas";

export interface RuleTimingIssue {
  field: "remindAfterMinutes" | "escalateAfterMinutes" | "escalateTo";
  message: string;
}

function minutes(n: number): string {
  return `${n} min`;
}

/**
 * Errors: an escalation without its delay or without anyone to tell (the
 * reminder sweep would silently skip it), and an escalation that does not come
 * after the reminder. Warnings: a reminder or escalation due at or after the
 * request expires, which is never sent (the request is decided by then).
 */
export function approvalRuleTimingIssues(rule: ApprovalRule): { errors: RuleTimingIssue[]; warnings: RuleTimingIssue[] } {
  const errors: RuleTimingIssue[] = [];
  const warnings: RuleTimingIssue[] = [];
  const { remindAfterMinutes: remind, escalateAfterMinutes: escalate, escalateTo } = rule;
  if (escalate !== undefined && escalateTo === undefined) {
    errors.push({ field: "escalateTo", message: "choose who hears of the escalation (a role or a Slack channel), or clear “Escalate after”" });
  }
  if (escalateTo !== undefined && escalate === undefined) {
    errors.push({ field: "escalateAfterMinutes", message: "set after how many minutes to escalate, or choose no escalation" });
  }
  if (remind !== undefined && escalate !== undefined && escalate <= remind) {
    errors.push({ field: "escalateAfterMinutes", message: `escalate must come after the reminder: more than ${minutes(remind)}` });
  }
  const expiresMinutes = rule.expiresInSeconds / 60;
  for (const [field, value, what] of [
    ["remindAfterMinutes", remind, "reminder"],
    ["escalateAfterMinutes", escalate, "escalation"],
  ] as const) {
    if (value !== undefined && value >= expiresMinutes) {
      warnings.push({ field, message: `the ${what} is never sent: the request expires after ${rule.expiresInSeconds} s (${Math.floor(expiresMinutes)} min), before it is due` });
    }
  }
  return { errors, warnings };
}
