"use client";
// A run at its token budget that asks an approver for more (limits.onBudget
// "ask") has no approval rule: the graph says when that request is reminded and
// escalated (limits.budgetReminders), with an approval rule's fields.
import type { AgentGraph, ApprovalReminders, RunLimits } from "@/lib/agents/schemas";
import type { GraphIssue } from "@/lib/agents/validate";
import { ApprovalReminderFields, remindersOrNone } from "./approval-reminder-fields";
import { FieldIssues } from "./fields";

type Issues = { errors: readonly GraphIssue[]; warnings: readonly GraphIssue[] };
type Edit = (change: (graph: AgentGraph) => AgentGraph, key: string) => void;

/** The limits with `onBudget` set; a run that fails at its budget asks nobody, so the request's reminders go with "ask" (undo brings them back). */
export function withOnBudget(limits: RunLimits, onBudget: RunLimits["onBudget"]): RunLimits {
  if (onBudget === "ask") return { ...limits, onBudget };
  const { budgetReminders: _dropped, ...rest } = limits;
  return { ...rest, onBudget };
}

/** The limits with the budget request's reminders, without the key once every field is off. */
export function withBudgetReminders(limits: RunLimits, reminders: ApprovalReminders): RunLimits {
  const kept = remindersOrNone(reminders);
  if (kept) return { ...limits, budgetReminders: kept };
  const { budgetReminders: _dropped, ...rest } = limits;
  return rest;
}

/** The budget request's reminder and escalation, shown while the run asks at its budget (else only what the validator says of a leftover setting). */
export function BudgetReminderSettings({ graph, issues, readOnly, edit }: { graph: AgentGraph; issues: Issues; readOnly: boolean; edit: Edit }) {
  if (graph.limits.onBudget !== "ask") return <FieldIssues issues={issues} path="limits.budgetReminders" />;
  return (
    <div className="space-y-1 rounded-md border border-zinc-200 p-2">
      <h4 className="text-xs font-medium text-zinc-800">Token request nobody decides</h4>
      <ApprovalReminderFields
        rule={graph.limits.budgetReminders ?? {}}
        idPrefix="budget"
        subject="the budget request"
        base="limits.budgetReminders"
        issues={issues}
        readOnly={readOnly}
        set={(next, field) => edit((g) => ({ ...g, limits: withBudgetReminders(g.limits, next) }), `limits:budgetReminders:${field}`)}
      />
    </div>
  );
}
