// Supervisor routing (seed §1): a router's answer is a routing decision over
// its children. Below the router's confidence threshold the decision's
// fallback (else the router's default agent) takes the task. The chosen child
// runs as a child workflow on the turn's task — one task, no follow-up window —
// and its answer is the run's answer. When it fails, control returns to the
// router with the reason, which routes again; after maxAttempts the run fails
// with routing_exhausted, its ledger (and every child's) kept. A child whose run
// is cancelled cancels the router's run.
import { CancelledFailure, uuid4, workflowInfo } from "@temporalio/workflow";
import type { AgentConfig } from "../../lib/agents/schemas";
import { reroutePrompt, type RoutingDecision } from "../../lib/contract/system-tools";
import type { RoutingRecord } from "../../lib/contract/types";
import type { AgentRunInput } from "../../lib/contract/workflow";
import { childLimits, runChildTask, type ChildTaskResult } from "./child-task";
import { tokenLimit } from "./budget";
import type { RunState } from "./run-state";
import { RunFailure } from "./run-failure";
import type { TurnResult } from "./final-answer";
import type { TurnContext } from "./turn-context";

export const DEFAULT_ROUTER = { threshold: 0.7, maxAttempts: 3 } as const;


/**
 * The children a router may still choose this turn: all of them until one
 * fails, then those left (the decision's schema, the return tool and the
 * alternatives say so). Null: offer the router's own list.
 */
export function offeredChildren(state: RunState, agent: AgentConfig): string[] | null {
  const failed = state.routingFailures;
  if (agent.kind !== "router" || failed.length === 0) return null;
  // Runs that re-routed before this existed were offered every child again: their histories replay so.
  if (!state.patches.routingOffersRemaining) return null;
  return agent.subAgents.filter((name) => !failed.some((f) => f.agentName === name));
}

/** A router's turn: decide, run the chosen child, and route again when it fails, up to maxAttempts. */
export async function routeTurn(turn: TurnContext): Promise<TurnResult> {
  const { state, input } = turn;
  const router = turn.agent;
  const maxAttempts = router.router?.maxAttempts ?? DEFAULT_ROUTER.maxAttempts;
  // The turn's failed children live in the run state: they survive continue-as-new.
  const failed = state.routingFailures;
  for (;;) {
    const attempt = failed.length + 1;
    const decided = await turn.iterate();
    if (decided.kind !== "answer") return decided;
    const parent = turn.parentSpan();
    const excluded = offeredChildren(state, router) ? failed.map((f) => f.agentName) : [];
    const record = recordDecision(state, router, decided.data as RoutingDecision, attempt, parent, excluded);
    const child = await runRoutedChild(state, input, router, record.chosen, state.turnTask || input.message, attempt, parent, turn.deadline);
    // A child cancelled from outside (a person cancelled its run) was stopped, not failed: the router's run is
    // cancelled too rather than routed around it (as a plan's cancelled synthesis does). Runs recorded before
    // the patch routed again, and replay so (engine-patches.ts stepsInHistory).
    if (!child.ok && child.cancelled && state.patches.stepsInHistory) throw new CancelledFailure(`the routed run ${child.runId} was cancelled`);
    await turn.checkBudget();
    if (child.ok) return { kind: "answer", text: child.text, ...(child.data !== undefined ? { data: child.data } : {}) };
    failed.push({ agentName: record.chosen, reason: child.reason });
    state.emit({ type: "routed_agent_failed", agentName: record.chosen, runId: child.runId, attempt, reason: child.reason });
    const remaining = router.subAgents.filter((name) => !failed.some((f) => f.agentName === name));
    if (attempt >= maxAttempts || remaining.length === 0) {
      throw new RunFailure("routing_exhausted", `${router.name} tried ${failed.map((f) => f.agentName).join(", ")} and none finished the task (${attempt} of ${maxAttempts} attempts)`, {
        attempts: failed,
      });
    }
    state.pushMessage({ role: "user", content: reroutePrompt(record.chosen, child.reason, remaining) });
  }
}

/** Picks who takes the task and records the decision as a span and an event. */
export function recordDecision(state: RunState, router: AgentConfig, decision: RoutingDecision, attempt: number, parentId: string, excluded: readonly string[] = []): RoutingRecord {
  const threshold = router.router?.threshold ?? DEFAULT_ROUTER.threshold;
  const confident = decision.confidence >= threshold;
  // A child that already failed this turn is neither a fallback nor the default (`excluded`).
  const fallback = decision.fallback && router.subAgents.includes(decision.fallback) && !excluded.includes(decision.fallback) ? decision.fallback : null;
  const defaultAgent = router.router?.defaultAgent && !excluded.includes(router.router.defaultAgent) ? router.router.defaultAgent : null;
  const alternative = fallback ?? defaultAgent;
  const chosen = confident || !alternative ? decision.target : alternative;
  const record: RoutingRecord = {
    router: router.name,
    attempt,
    target: decision.target,
    confidence: decision.confidence,
    reason: decision.reason.slice(0, 500),
    fallback,
    chosen,
    fallbackTaken: chosen !== decision.target,
    threshold,
  };
  const span = state.startSpan("routing", `${router.name} → ${chosen}`, parentId, {
    target: record.target,
    confidence: record.confidence,
    threshold,
    reason: record.reason,
    chosen,
    fallbackTaken: record.fallbackTaken,
    attempt,
    ...(fallback ? { fallback } : {}),
  });
  state.emit({ type: "routing_decided", decision: record });
  state.endSpan(span, "ok");
  state.routedTo = chosen;
  return record;
}

/**
 * Runs the chosen child on the task; its failure is a result (the router may
 * route again), a cancellation is not. The child spends from what the run
 * tree has left: the root alone asks approvers for more.
 */
export async function runRoutedChild(
  state: RunState,
  input: AgentRunInput,
  router: AgentConfig,
  chosen: string,
  task: string,
  attempt: number,
  parentId: string,
  deadline: number,
): Promise<ChildTaskResult> {
  const runId = `${workflowInfo().workflowId}.route-${attempt}-${chosen}-${uuid4().slice(0, 8)}`;
  const left = Math.max(1, tokenLimit(state, input.graph.limits) - state.totalTokens());
  return runChildTask(
    { state, input, caller: router },
    { agentName: chosen, message: task, workflowId: runId, parentSpanId: parentId, attributes: { routed: true, attempt }, limits: childLimits(left, deadline) },
  );
}
