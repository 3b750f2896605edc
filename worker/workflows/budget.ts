// The run's budgets inside the workflow: tokens (a warning at 90 %, then a
// failure at the limit, or with onBudget "ask" a wait for an approver to grant
// more), time (the run timeout's failure) and history (when an execution has
// grown enough to continue as new).
import { workflowInfo } from "@temporalio/workflow";
import type { RunLimits } from "../../lib/agents/schemas";
import { defaultTokenGrant, grantedTokens } from "../../lib/contract/budget-approval";
import { approvalsOf } from "./approvals";
import { RunFailure } from "./run-failure";
import type { RunState } from "./run-state";

/** History events one iteration adds (activity and ledger markers plus workflow-task events). */
const EVENTS_PER_ITERATION = 8;

/** How long before the run's deadline a request for tokens expires, so its expiry (not the run timeout) ends the wait. */
const EXPIRY_MARGIN_MS = 1000;

/** The token budget in force: the graph's, plus what approvers granted. */
export function tokenLimit(state: RunState, limits: RunLimits): number {
  return limits.tokenBudget + state.budgetGranted;
}

function exceededMessage(used: number, limit: number): string {
  return `the run used ${used} tokens of its ${limit}-token budget`;
}

/**
 * Warns once at 90 % of the token budget; at the limit, fails the run, or
 * (onBudget "ask") returns a promise that settles once an approver granted
 * enough tokens to go on, and rejects with budget_exceeded when the request
 * is rejected or expires. Returns nothing while within the budget: callers
 * await only a promise, so runs that never wait replay exactly as before.
 */
export function checkTokenBudget(state: RunState, limits: RunLimits): Promise<void> | undefined {
  const used = state.totalTokens();
  const limit = tokenLimit(state, limits);
  if (!state.budgetWarned && used >= limit * 0.9) {
    state.budgetWarned = true;
    state.emit({ type: "budget_warning", budget: "tokens", used, limit });
  }
  if (used < limit) return undefined;
  // Runs recorded before onBudget existed have no such field: they fail, as they did.
  if (limits.onBudget !== "ask") throw new RunFailure("budget_exceeded", exceededMessage(used, limit));
  return extensionOf(state, limits);
}

/** The request for tokens in flight per run: parallel calls that cross the budget together wait for the same one. */
const extensions = new WeakMap<RunState, Promise<void>>();

function extensionOf(state: RunState, limits: RunLimits): Promise<void> {
  let extension = extensions.get(state);
  if (!extension) {
    extension = askForTokens(state, limits).finally(() => extensions.delete(state));
    extensions.set(state, extension);
  }
  return extension;
}

/** Asks until the run is within its budget again (a grant smaller than the overshoot asks again). */
async function askForTokens(state: RunState, limits: RunLimits): Promise<void> {
  const approvals = approvalsOf(state);
  for (;;) {
    const used = state.totalTokens();
    const limit = tokenLimit(state, limits);
    if (used < limit) return;
    if (!approvals) throw new RunFailure("budget_exceeded", exceededMessage(used, limit));
    const turnStartedAt = state.turnStartedAt ? Date.parse(state.turnStartedAt) : Date.now();
    const approval = await approvals.requestTokens({
      used,
      limit,
      requested: defaultTokenGrant(limits.tokenBudget, used, limit),
      expiresBy: turnStartedAt + limits.runTimeoutSeconds * 1000 - EXPIRY_MARGIN_MS,
    });
    if (approval.status === "approved") {
      const granted = grantedTokens(approval);
      state.budgetGranted += granted;
      // Warn again as the run nears its new limit.
      state.budgetWarned = false;
      state.emit({ type: "budget_extended", granted, limit: tokenLimit(state, limits), by: approval.decision?.decidedBy.email ?? null });
      continue;
    }
    if (approval.status === "rejected") {
      const by = approval.decision?.decidedBy.email ?? "an approver";
      const reason = approval.decision?.reason ? `: ${approval.decision.reason}` : "";
      throw new RunFailure("budget_exceeded", `${exceededMessage(used, limit)}; ${by} declined to grant more tokens${reason}`);
    }
    throw new RunFailure("budget_exceeded", `${exceededMessage(used, limit)}; the request for more tokens expired before an approver decided`);
  }
}

/** The failure of a turn that had no final answer when the run timeout struck. */
export function runTimeoutFailure(limits: RunLimits): RunFailure {
  return new RunFailure("timeout", `no final answer within the run timeout of ${limits.runTimeoutSeconds} s`);
}

/** Tells when this execution's history is long enough to continue as new. */
export class HistoryBudget {
  /** Iterations run by this execution (not carried): local activities add history only when their workflow task completes. */
  private iterationsThisExecution = 0;

  constructor(private readonly limits: RunLimits) {}

  countIteration(): void {
    this.iterationsThisExecution++;
  }

  shouldContinueAsNew(): boolean {
    const info = workflowInfo();
    // historyLength is as of the current workflow task; estimate the events
    // this execution's iterations add (two activity markers plus task events each).
    const estimated = Math.max(info.historyLength, this.iterationsThisExecution * EVENTS_PER_ITERATION);
    return info.continueAsNewSuggested || estimated >= this.limits.continueAsNewAfterEvents;
  }
}
