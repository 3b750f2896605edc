// One task for another agent, run as a child workflow that answers once and
// closes: a router's chosen agent, a plan's node, a plan's synthesis. The child
// inherits the run's gate and the caller's approval rules (as a sub-agent
// does), the caller's model for an agent whose model is `inherit`, and the
// run's engine behaviour. Its failure is a result the caller decides on; a
// cancellation is not.
import { ApplicationFailure, CancelledFailure, ChildWorkflowFailure, isCancellation, startChild, workflowInfo } from "@temporalio/workflow";
import type { AgentConfig, RunLimits } from "../../lib/agents/schemas";
import type { ResultRef, SpendLimitHit, TokenUsage } from "../../lib/contract/types";
import type { AgentRunInput, RunOutcome } from "../../lib/contract/workflow";
import { AGENT_WORKFLOW_TASK_TIMEOUT, AGENT_WORKFLOW_TYPE } from "../../lib/contract/definitions";
import { SA_AGENT_NAME, SA_PARENT_RUN_ID } from "../../lib/temporal/search-attribute-keys";
import { childTape } from "./tape-paths";
import { childGate } from "./child-gate";
import type { RunState } from "./run-state";

/**
 * How a child run ended, for every caller (router, plan, synthesis). A failure
 * names the child's failure type (`model_error`, `agent_failed`, …: the
 * caller decides what to retry) and says whether it was a cancellation.
 * `spendLimit`: an inline plan node stopped at a reached spend limit before
 * calling its model (inline-node.ts); the plan's run stops or asks.
 */
export type ChildTaskResult =
  | { ok: true; runId: string; text: string; data?: unknown; usage: TokenUsage }
  | { ok: false; runId: string; reason: string; failure: string; cancelled: boolean; usage?: TokenUsage; spendLimit?: SpendLimitHit };

/** The tokens a failed child spent, from its failure's details (absent for children of older workers and for lost ones). */
function usageOfFailure(cause: unknown): TokenUsage | undefined {
  if (!(cause instanceof ApplicationFailure)) return undefined;
  return usageOfDetail(cause.details?.[0]);
}

/** `{ usage: TokenUsage }` as a failure's or a heartbeat's details carry it, else undefined. */
export function usageOfDetail(detail: unknown): TokenUsage | undefined {
  if (!detail || typeof detail !== "object" || !("usage" in detail)) return undefined;
  const usage: unknown = detail.usage;
  if (!usage || typeof usage !== "object" || !("inputTokens" in usage) || !("outputTokens" in usage)) return undefined;
  const { inputTokens, outputTokens } = usage;
  return typeof inputTokens === "number" && typeof outputTokens === "number" ? { inputTokens, outputTokens } : undefined;
}

/** How long a child of a run tree may outlive its root's deadline: the root's timeout, not the child's, ends the tree's work. */
const CHILD_DEADLINE_GRACE_SECONDS = 30;

/**
 * A child's share of its run tree's limits: the tokens the root has not spent
 * (`tokens`; the root alone asks approvers for more), and a run timeout past
 * the root's deadline, so the root's timeout cancels its children rather than
 * racing their own (a child starts later, but a loaded worker may process its
 * timer first).
 */
export function childLimits(tokens: number, rootDeadline: number): Partial<RunLimits> {
  const remaining = Number.isFinite(rootDeadline) ? Math.max(1, Math.ceil((rootDeadline - Date.now()) / 1000)) : null;
  return { tokenBudget: Math.max(1, tokens), onBudget: "fail", ...(remaining !== null ? { runTimeoutSeconds: remaining + CHILD_DEADLINE_GRACE_SECONDS } : {}) };
}

export interface ChildTask {
  agentName: string;
  message: string;
  /** The child's workflow id (its run id). */
  workflowId: string;
  parentSpanId: string;
  /** What the child's sub_agent span records beside its run id. */
  attributes: Record<string, string | number | boolean>;
  /** Overrides of the graph's limits for the child: its share of the run tree's token budget. */
  limits?: Partial<RunLimits>;
  /** Shared by every attempt of one plan node (see AgentRunInput.sideEffectScope). */
  sideEffectScope?: string;
  /** A plan node's dependencies' results by reference (the child's model calls read them from the ledger). */
  results?: ResultRef[];
  /** Called once Temporal reports the child started (a plan paces its starts by it). */
  onStarted?: () => void;
}

export async function runChildTask(run: { state: RunState; input: AgentRunInput; caller: AgentConfig }, task: ChildTask): Promise<ChildTaskResult> {
  const { state, input, caller } = run;
  const span = state.startSpan("sub_agent", task.agentName, task.parentSpanId, { ...task.attributes, childRunId: task.workflowId });
  const childInput: AgentRunInput = {
    graph: task.limits ? { ...input.graph, limits: { ...input.graph.limits, ...task.limits } } : input.graph,
    ...(task.sideEffectScope ? { sideEffectScope: task.sideEffectScope } : {}),
    ...(task.results?.length ? { results: task.results } : {}),
    agentName: task.agentName,
    message: task.message,
    context: input.context,
    rootRunId: input.rootRunId,
    parentRunId: workflowInfo().workflowId,
    depth: input.depth + 1,
    conversation: null,
    startedBy: input.startedBy,
    graphName: input.graphName ?? null,
    agentVersionId: input.agentVersionId ?? null,
    oneShot: true,
    parentModel: caller.model,
    ...(input.behaviour !== undefined ? { behaviour: input.behaviour } : {}),
    gate: childGate(input, state, caller.approvalRules),
    // A taped run's child replays from the same tape, at its own path.
    ...childTape(state, workflowInfo().workflowId, task.workflowId),
  };
  try {
    // startChild, then its result: what executeChild does, with the moment it started in between.
    const handle = await startChild<(input: AgentRunInput) => Promise<RunOutcome>>(AGENT_WORKFLOW_TYPE, {
      workflowId: task.workflowId,
      args: [childInput],
      workflowTaskTimeout: AGENT_WORKFLOW_TASK_TIMEOUT,
      typedSearchAttributes: [
        { key: SA_AGENT_NAME, value: task.agentName },
        { key: SA_PARENT_RUN_ID, value: workflowInfo().workflowId },
      ],
    });
    task.onStarted?.();
    const outcome = await handle.result();
    state.addUsage(outcome.usage);
    state.endSpan(span, "ok", { tokens: outcome.usage });
    return { ok: true, runId: task.workflowId, text: outcome.output ?? "", usage: outcome.usage, ...(outcome.outputData ? { data: JSON.parse(outcome.outputData) as unknown } : {}) };
  } catch (error) {
    if (isCancellation(error) && !(error instanceof ChildWorkflowFailure)) {
      state.endSpan(span, "error", { attributes: { outcome: "cancelled" } });
      throw error;
    }
    const cause = error instanceof ChildWorkflowFailure ? error.cause : error;
    const reason = cause instanceof ApplicationFailure ? `${cause.type ?? "failed"}: ${cause.message}` : cause instanceof Error ? cause.message : String(cause);
    const usage = usageOfFailure(cause);
    if (usage) state.addUsage(usage);
    const cancelled = cause instanceof CancelledFailure;
    state.endSpan(span, "error", { ...(usage ? { tokens: usage } : {}), attributes: { outcome: cancelled ? "cancelled" : "failed", reason: reason.slice(0, 300) } });
    const failure = cancelled ? "cancelled" : cause instanceof ApplicationFailure && cause.type ? cause.type : "failed";
    return { ok: false, runId: task.workflowId, reason: reason.slice(0, 500), failure, cancelled, ...(usage ? { usage } : {}) };
  }
}
