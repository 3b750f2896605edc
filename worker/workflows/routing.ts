// Supervisor routing (seed §1): a router's answer is a routing decision over
// its children. Below the router's confidence threshold the decision's
// fallback (else the router's default agent) takes the task. The chosen child
// runs as a child workflow on the turn's task — one task, no follow-up window —
// and its answer is the run's answer. When it fails, control returns to the
// router with the reason, which routes again; after maxAttempts the run fails
// with routing_exhausted, its ledger (and every child's) kept.
import { uuid4, workflowInfo } from "@temporalio/workflow";
import type { AgentConfig } from "../../lib/agents/schemas";
import type { RoutingDecision } from "../../lib/contract/system-tools";
import type { RoutingRecord } from "../../lib/contract/types";
import type { AgentRunInput } from "../../lib/contract/workflow";
import { runChildTask } from "./child-task";
import type { RunState } from "./run-state";

export const DEFAULT_ROUTER = { threshold: 0.7, maxAttempts: 3 } as const;

/** Picks who takes the task and records the decision as a span and an event. */
export function recordDecision(state: RunState, router: AgentConfig, decision: RoutingDecision, attempt: number, parentId: string): RoutingRecord {
  const threshold = router.router?.threshold ?? DEFAULT_ROUTER.threshold;
  const confident = decision.confidence >= threshold;
  const fallback = decision.fallback && router.subAgents.includes(decision.fallback) ? decision.fallback : null;
  const alternative = fallback ?? router.router?.defaultAgent ?? null;
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

export type ChildResult = { ok: true; text: string; data?: unknown } | { ok: false; reason: string; runId: string };

/** Runs the chosen child on the task; its failure is a result (the router may route again), a cancellation is not. */
export async function runRoutedChild(state: RunState, input: AgentRunInput, router: AgentConfig, chosen: string, task: string, attempt: number, parentId: string): Promise<ChildResult> {
  const runId = `${workflowInfo().workflowId}.route-${attempt}-${chosen}-${uuid4().slice(0, 8)}`;
  const result = await runChildTask({ state, input, caller: router }, { agentName: chosen, message: task, workflowId: runId, parentSpanId: parentId, attributes: { routed: true, attempt } });
  if (!result.ok) return { ok: false, reason: result.reason, runId };
  return { ok: true, text: result.text, ...(result.data !== undefined ? { data: result.data } : {}) };
}
