// What a compact inbox row says about a call in one line: the arguments a
// person checks first. Numbers come first because amounts, counts and limits
// are what an approver weighs; long values are cut so a row stays one line.
import { approvalSubject, isBudgetApproval, requestedTokens } from "@/lib/contract/budget-approval";
import { isPlanApproval, proposedPlan } from "@/lib/contract/plan-approval";
import { isSpendLimitApproval } from "@/lib/contract/spend-limit-approval";
import type { InboxItem } from "@/lib/inbox/schemas";

const VALUE_MAX = 40;

function shortValue(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? "null";
  return text.length > VALUE_MAX ? `${text.slice(0, VALUE_MAX - 1)}…` : text;
}

/** "amount: 12 · from_account: savings · to_account: operating": numeric arguments first, then the rest in their order. */
export function argumentSummary(args: Record<string, unknown>): string {
  const entries = Object.entries(args);
  const numeric = entries.filter(([, v]) => typeof v === "number");
  const other = entries.filter(([, v]) => typeof v !== "number");
  return [...numeric, ...other].map(([k, v]) => `${k}: ${shortValue(v)}`).join(" · ") || "no arguments";
}

/** The row's title and one-line summary for each kind of approval. */
export function rowSummary(item: InboxItem): { title: string; summary: string } {
  if (isBudgetApproval(item)) return { title: "Token budget", summary: `${requestedTokens(item).toLocaleString("en")} more tokens` };
  if (isSpendLimitApproval(item)) return { title: "Spend limit", summary: item.spendLimit?.message ?? "a spend limit is reached" };
  if (isPlanApproval(item)) {
    const nodes = proposedPlan(item)?.nodes.length;
    return { title: "Plan", summary: nodes === undefined ? "a plan that could not be read" : `${nodes} node${nodes === 1 ? "" : "s"}` };
  }
  // A call a guardrail held says so first: the approver weighs the rule that stopped it with the amounts.
  const held = item.guardrail ? `guardrail ${item.guardrail} · ` : "";
  return { title: approvalSubject(item), summary: `${held}${argumentSummary(item.arguments)}` };
}
