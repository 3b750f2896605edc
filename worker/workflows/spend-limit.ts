// A spend limit reached while the run works (issue 39 §3, docs/spend-limits.md
// "Runs already working"): the model-call activity found it before calling the
// model (inference.ts, the spend-limits-in-run patch). The limit says what
// happens: "stop" fails the run with spend_limit_reached; "ask" pauses it into
// the inbox, as onBudget "ask" does for tokens, until someone raises the limit
// and approves (the call is then made again, and asks again while the limit is
// still reached), or rejects it or lets it expire (the run stops).
import type { RunLimits } from "../../lib/agents/schemas";
import { spendLimitStopMessage, type SpendLimitHit } from "../../lib/contract/spend-limit-approval";
import { approvalsOf } from "./approvals";
import { RunFailure } from "./run-failure";
import type { RunState } from "./run-state";

/** How long before the run's deadline the request expires, so its expiry (not the run timeout) ends the wait. */
const EXPIRY_MARGIN_MS = 1000;

function stopped(hit: SpendLimitHit, why: string): RunFailure {
  return new RunFailure("spend_limit_reached", spendLimitStopMessage(hit, why));
}

/** The request in flight per run: calls that meet the limit together wait for the same one. */
const requests = new WeakMap<RunState, Promise<void>>();

/**
 * Stops the run (the limit's onReached "stop", or a run that cannot ask), or
 * resolves once an approver let it go on; rejects with spend_limit_reached when
 * the request is rejected or expires. The caller makes its model call again.
 */
export function meetSpendLimit(state: RunState, limits: RunLimits, hit: SpendLimitHit): Promise<void> {
  if (hit.onReached === "stop") return Promise.reject(stopped(hit, "the limit stops running runs"));
  let request = requests.get(state);
  if (!request) {
    request = ask(state, limits, hit).finally(() => requests.delete(state));
    requests.set(state, request);
  }
  return request;
}

async function ask(state: RunState, limits: RunLimits, hit: SpendLimitHit): Promise<void> {
  const approvals = approvalsOf(state);
  if (!approvals) throw stopped(hit, "the run cannot ask to go on");
  const turnStartedAt = state.turnStartedAt ? Date.parse(state.turnStartedAt) : Date.now();
  const approval = await approvals.requestSpendLimit(hit, turnStartedAt + limits.runTimeoutSeconds * 1000 - EXPIRY_MARGIN_MS);
  if (approval.status === "approved") return;
  if (approval.status === "rejected") {
    const by = approval.decision?.decidedBy.email ?? "an approver";
    const reason = approval.decision?.reason ? `: ${approval.decision.reason}` : "";
    throw stopped(hit, `${by} stopped the run${reason}`);
  }
  throw stopped(hit, "the request to go on expired before an approver decided");
}
