// Spend limit approvals (issue 39 §3): a run that is already working when a
// spend limit of its scope is reached, and whose limit says onReached "ask",
// waits in the inbox for someone to raise the limit (then approve) or stop it.
// Part of the contract: pure, browser-safe and zod-free, so the workflow, the
// worker's check, the server and the inbox read a request alike.
import type { ApprovalRequest } from "./types";

/** The tool name a spend limit approval carries (no real call has it: built-in names are fixed, MCP tools are prefixed). */
export const SPEND_LIMIT_APPROVAL_TOOL = "spend_limit";

/** A spend limit reached by a working run, as the model-call activity found it (no model was called). */
export interface SpendLimitHit {
  limitId: string;
  scope: "workspace" | "graph" | "user" | "api_key";
  /** The graph's name, the user's email, the key's name; "Workspace" for the workspace. */
  scopeLabel: string;
  period: "day" | "month";
  amountUsd: number;
  /** The priced spend of the limit's current window when it was read. */
  spentUsd: number;
  onReached: "ask" | "stop";
  /** The end of the limit's current window (ISO): the limit allows runs again then. */
  windowEnd: string;
  /** One line naming the limit, e.g. `$5.20 spent of the daily spend limit of graph "support" ($5.00)`. */
  message: string;
}

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
