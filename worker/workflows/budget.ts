// The run's budgets inside the workflow: tokens (a warning at 90 %, a failure
// at the limit), time (the run timeout's failure) and history (when an
// execution has grown enough to continue as new).
import { workflowInfo } from "@temporalio/workflow";
import type { RunLimits } from "../../lib/agents/schemas";
import { RunFailure } from "./run-failure";
import type { RunState } from "./run-state";

/** History events one iteration adds (activity and ledger markers plus workflow-task events). */
const EVENTS_PER_ITERATION = 8;

/** Warns once at 90 % of the token budget; fails the run once it is used up. */
export function checkTokenBudget(state: RunState, limits: RunLimits): void {
  const used = state.totalTokens();
  const limit = limits.tokenBudget;
  if (!state.budgetWarned && used >= limit * 0.9) {
    state.budgetWarned = true;
    state.emit({ type: "budget_warning", budget: "tokens", used, limit });
  }
  if (used >= limit) throw new RunFailure("budget_exceeded", `the run used ${used} tokens of its ${limit}-token budget`);
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
