// Spend limit approvals (issue 39 §3): a run that is already working when a
// spend limit of its scope is reached, and whose limit says onReached "ask",
// waits in the inbox for someone to raise the limit (then approve) or stop it.
// Part of the contract: pure, browser-safe and zod-free, so the workflow, the
// worker's check, the server and the inbox read a request alike.
import type { ApprovalRequest, SpendLimitHit } from "./types";

/** The tool name a spend limit approval carries (no real call has it: built-in names are fixed, MCP tools are prefixed). */
export const SPEND_LIMIT_APPROVAL_TOOL = "spend_limit";

// Defined beside ApprovalRequest in ./types (which names it), so the contract has no import cycle.
export type { SpendLimitHit } from "./types";

/** Whether an approval asks to go on past a spend limit. */
export function isSpendLimitApproval(approval: Pick<ApprovalRequest, "kind">): boolean {
  return approval.kind === "spend_limit";
}

/** A spend limit request as a sentence, e.g. `help-desk is paused: $5.20 spent of the daily spend limit of …`. */
export function spendLimitRequestSentence(approval: Pick<ApprovalRequest, "agentName" | "spendLimit">): string {
  return `${approval.agentName} is paused: ${approval.spendLimit?.message ?? "a spend limit of its scope is reached"}`;
}

/** The failure message of a run stopped by a spend limit. */
export function spendLimitStopMessage(hit: Pick<SpendLimitHit, "message">, why: string): string {
  return `spend limit reached: ${hit.message}; ${why}`;
}
