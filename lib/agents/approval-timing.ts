// Cross-field checks of an approval's reminder and escalation (the zod schema
// checks each field alone): an approval rule's, a graph's budget asks'
// (limits.budgetReminders) and its plan approval's (plan.approvalReminders).
// The engine's validator and the reminders' schema run them, so the designer
// shows them live and the server refuses the same saves with the same words.
// No import of ./schemas: the schema imports this file.

/** The three fields every reminder setting has (an approval rule has them among its others). */
export interface ApprovalTiming {
  remindAfterMinutes?: number | undefined;
  escalateAfterMinutes?: number | undefined;
  escalateTo?: string | undefined;
}

export interface RuleTimingIssue {
  field: "remindAfterMinutes" | "escalateAfterMinutes" | "escalateTo";
  message: string;
}

function minutes(n: number): string {
  return `${n} min`;
}

/**
 * An escalation without its delay or without anyone to tell (the reminder
 * sweep would silently skip it), and an escalation that does not come after
 * the reminder.
 */
export function approvalTimingErrors(timing: ApprovalTiming): RuleTimingIssue[] {
  const errors: RuleTimingIssue[] = [];
  const { remindAfterMinutes: remind, escalateAfterMinutes: escalate, escalateTo } = timing;
  if (escalate !== undefined && escalateTo === undefined) {
    errors.push({ field: "escalateTo", message: "choose who hears of the escalation (a role or a Slack channel), or clear “Escalate after”" });
  }
  if (escalateTo !== undefined && escalate === undefined) {
    errors.push({ field: "escalateAfterMinutes", message: "set after how many minutes to escalate, or choose no escalation" });
  }
  if (remind !== undefined && escalate !== undefined && escalate <= remind) {
    errors.push({ field: "escalateAfterMinutes", message: `escalate must come after the reminder: more than ${minutes(remind)}` });
  }
  return errors;
}

/** A reminder or escalation due at or after `expiresInSeconds`, which is never sent (the request is decided by then); `expiry` says why. */
function lateWarnings(timing: ApprovalTiming, expiresInSeconds: number, expiry: string): RuleTimingIssue[] {
  const expiresMinutes = expiresInSeconds / 60;
  const warnings: RuleTimingIssue[] = [];
  for (const [field, value, what] of [
    ["remindAfterMinutes", timing.remindAfterMinutes, "reminder"],
    ["escalateAfterMinutes", timing.escalateAfterMinutes, "escalation"],
  ] as const) {
    if (value !== undefined && value >= expiresMinutes) warnings.push({ field, message: `the ${what} is never sent: ${expiry}` });
  }
  return warnings;
}

/**
 * An approval rule's timing. Errors: see approvalTimingErrors. Warnings: a
 * reminder or escalation due at or after the rule's expiry.
 */
export function approvalRuleTimingIssues(rule: ApprovalTiming & { expiresInSeconds: number }): { errors: RuleTimingIssue[]; warnings: RuleTimingIssue[] } {
  const expiry = `the request expires after ${rule.expiresInSeconds} s (${Math.floor(rule.expiresInSeconds / 60)} min), before it is due`;
  return { errors: approvalTimingErrors(rule), warnings: lateWarnings(rule, rule.expiresInSeconds, expiry) };
}

/**
 * Warnings of a budget ask's or a plan approval's timing (its errors are the
 * reminders' schema's): the run makes both requests expire before its own
 * timeout (worker/workflows/budget.ts, planning.ts), so a reminder or
 * escalation due at or after `runTimeoutSeconds` is never sent.
 */
export function runApprovalTimingWarnings(timing: ApprovalTiming, runTimeoutSeconds: number): RuleTimingIssue[] {
  return lateWarnings(timing, runTimeoutSeconds, `the request expires before the run timeout (${runTimeoutSeconds} s, ${Math.floor(runTimeoutSeconds / 60)} min)`);
}
