// Budget approvals (run limits onBudget "ask"): a run at its token budget asks
// an approver for more tokens instead of failing. Part of the contract: pure,
// browser-safe and zod-free, so the workflow (its update validator and the
// request), the server and the inbox read a request and check a grant alike.
import type { ApprovalRequest } from "./types";

/**
 * The tool name a budget approval carries, so the audit, webhooks and filters
 * name it like any approval. No real call has it: built-in names are fixed and
 * MCP tools carry their server's prefix.
 */
export const BUDGET_APPROVAL_TOOL = "token_budget";

/** The most tokens one decision may grant (the largest token budget a graph may set). */
export const MAX_TOKEN_GRANT = 100_000_000;

/** Whether an approval asks for more tokens rather than for a tool call. */
export function isBudgetApproval(approval: Pick<ApprovalRequest, "kind">): boolean {
  return approval.kind === "budget";
}

/**
 * The amount a budget approval asks for by default: half the original budget
 * of headroom beyond what the run has already used (so one grant is enough to
 * go on even when the last model call overshot the limit).
 */
export function defaultTokenGrant(originalBudget: number, used: number, limit: number): number {
  return Math.min(MAX_TOKEN_GRANT, Math.ceil(originalBudget / 2) + Math.max(0, used - limit));
}

/** Why an approver's edit of a budget request is refused: it must be `{ tokens: N }`, N a whole number from 1 to MAX_TOKEN_GRANT. */
export function tokenGrantProblems(edited: Record<string, unknown>): string[] {
  const problems = Object.keys(edited)
    .filter((key) => key !== "tokens")
    .map((key) => `${key}: only tokens can be edited on a budget request`);
  const tokens = edited.tokens;
  if (tokens === undefined) problems.push("tokens: required");
  else if (typeof tokens !== "number" || !Number.isInteger(tokens)) problems.push("tokens: must be a whole number");
  else if (tokens < 1) problems.push("tokens: must be at least 1");
  else if (tokens > MAX_TOKEN_GRANT) problems.push(`tokens: must be at most ${MAX_TOKEN_GRANT}`);
  return problems;
}

/** The tokens a budget approval asked for. */
export function requestedTokens(approval: Pick<ApprovalRequest, "arguments">): number {
  const tokens = approval.arguments.tokens;
  return typeof tokens === "number" ? tokens : 0;
}

/** The tokens an approved budget approval grants: the approver's amount when edited, else the amount asked for. */
export function grantedTokens(approval: Pick<ApprovalRequest, "arguments" | "decision">): number {
  const edited = approval.decision?.editedArguments?.tokens;
  return typeof edited === "number" ? edited : requestedTokens(approval);
}

/** The JSON schema of a budget request's editable arguments (what the inbox and API clients edit). */
export const TOKEN_GRANT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: { tokens: { type: "integer", minimum: 1, maximum: MAX_TOKEN_GRANT, description: "Tokens to add to the run's budget" } },
  required: ["tokens"],
  additionalProperties: false,
};

/** What an approval asks for, in a few words: the tool's name, "more tokens", or going on past a spend limit. */
export function approvalSubject(approval: Pick<ApprovalRequest, "kind" | "toolName">): string {
  return isBudgetApproval(approval) ? "more tokens" : approval.kind === "spend_limit" ? "going on past a spend limit" : approval.toolName;
}

/** A budget request as a sentence, e.g. "help-desk wants more tokens: used 51,200 of 50,000". */
export function budgetRequestSentence(approval: Pick<ApprovalRequest, "agentName" | "budget">): string {
  const used = approval.budget?.used ?? 0;
  const limit = approval.budget?.limit ?? 0;
  return `${approval.agentName} wants more tokens: used ${used.toLocaleString("en")} of ${limit.toLocaleString("en")}`;
}
