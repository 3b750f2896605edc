// A plan node run as one activity of the plan's run instead of a child
// workflow, when its agent's run is model calls alone (see
// worker/activities/plan-node.ts for why, and what it writes). The node is
// still a run of its own, with its own id, ledger and share of the budget;
// it reports the same ChildTaskResult a child run does, so the scheduler
// treats both alike (retries, cancellation, budget).
import { ActivityCancellationType, ActivityFailure, ApplicationFailure, isCancellation, proxyActivities, TimeoutFailure, workflowInfo } from "@temporalio/workflow";
import type { AgentConfig, AgentGraph } from "../../lib/agents/schemas";
import { effectiveModel } from "../../lib/agents/model-inheritance";
import { isPlanner } from "../../lib/contract/system-tools";
import type { PlanNodeActivities } from "../activities/plan-node";
import { usageOfDetail, type ChildTask, type ChildTaskResult } from "./child-task";
import type { TokenUsage } from "../../lib/contract/types";
import type { RunState } from "./run-state";
import type { AgentRunInput } from "../../lib/contract/workflow";

/** Whether a node on `agent` may run inline: no tools, sub-agents or handoffs, a plain-text answer, no router or planner role. */
export function runsAsModelCalls(agent: AgentConfig | undefined, graph: AgentGraph): agent is AgentConfig {
  return !!agent && agent.kind !== "router" && !isPlanner(agent, graph) && agent.tools.length === 0 && agent.subAgents.length === 0 && agent.handoffs.length === 0 && !agent.outputSchema;
}

/**
 * The heartbeat timeout of runs since the steps-in-history patch. 3 s (before) was tripped by a worker whose event
 * loop a synchronous SQLite write held for seconds: Temporal started attempt 2 while attempt 1 still wrote. 10 s
 * is the model-call activity's (inference.ts), for the same work; a cancel, which reaches an activity with a
 * heartbeat's reply (heartbeats are throttled to 80 % of the timeout), still stops a node within 8 s. A timeout
 * tripped all the same is harmless now: the node's writes are fenced by attempt (plan-node.ts).
 */
const HEARTBEAT_TIMEOUT = "10 seconds";

/** A node's run that a retry may repeat: the activity is tried again after a lost worker or an internal failure. */
function nodeActivity(timeoutSeconds: number | undefined, stepsInHistory: boolean) {
  return proxyActivities<PlanNodeActivities>({
    startToCloseTimeout: "10 minutes",
    // A cancel reaches an activity with a heartbeat's reply, and heartbeats are throttled to 80 % of
    // this timeout: 3 s kept a cancelled plan's nodes stopping within seconds (runs before the patch keep it).
    heartbeatTimeout: stepsInHistory ? HEARTBEAT_TIMEOUT : "3 seconds",
    ...(timeoutSeconds !== undefined ? { scheduleToCloseTimeout: timeoutSeconds * 1000 } : {}),
    retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "30 seconds", maximumAttempts: 5 },
    // The node's run records its cancellation before the plan records the node as cancelled.
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  });
}

/**
 * What a node's activity spent when no attempt is left: its last attempt's failure carries it, and a timed-out
 * attempt's last heartbeat does (worker/activities/plan-node.ts). Undefined from workers of older releases.
 */
function usageOfNodeFailure(cause: unknown): TokenUsage | undefined {
  if (cause instanceof TimeoutFailure) return usageOfDetail(cause.lastHeartbeatDetails);
  if (cause instanceof ApplicationFailure) return usageOfDetail(cause.details?.[0]);
  return undefined;
}

export async function runNodeInline(run: { state: RunState; input: AgentRunInput; caller: AgentConfig }, agent: AgentConfig, task: ChildTask): Promise<ChildTaskResult> {
  const { state, input, caller } = run;
  const span = state.startSpan("sub_agent", task.agentName, task.parentSpanId, { ...task.attributes, childRunId: task.workflowId, inline: true });
  const limits = { ...input.graph.limits, ...task.limits };
  // Nothing to pace: an activity's input is the node's message, not the whole graph.
  task.onStarted?.();
  try {
    const output = await nodeActivity(task.limits?.runTimeoutSeconds, state.patches.stepsInHistory).runPlanNode({
      identity: {
        runId: task.workflowId,
        rootRunId: input.rootRunId,
        parentRunId: workflowInfo().workflowId,
        agentName: task.agentName,
        task: task.message,
        context: input.context,
        startedBy: input.startedBy,
        graphName: input.graphName ?? null,
        agentVersionId: input.agentVersionId ?? null,
      },
      agent: { ...agent, model: effectiveModel(agent.model, caller.model) },
      results: task.results ?? [],
      depth: input.depth + 1,
      startedAt: new Date(Date.now()).toISOString(),
      tokenBudget: limits.tokenBudget,
      ...(limits.maxSteps !== undefined ? { maxSteps: limits.maxSteps } : {}),
      // Only under the patch, so executions started before it send exactly what they did.
      ...(state.patches.spendLimitsEveryCall ? { spendCheck: true as const } : {}),
    });
    state.addUsage(output.usage);
    if (output.ok) {
      state.endSpan(span, "ok", { tokens: output.usage });
      return { ok: true, runId: task.workflowId, text: output.text, usage: output.usage };
    }
    state.endSpan(span, "error", { tokens: output.usage, attributes: { outcome: "failed", reason: output.reason.slice(0, 300) } });
    return { ok: false, runId: task.workflowId, reason: output.reason.slice(0, 500), failure: output.failure, cancelled: false, usage: output.usage, ...(output.spendLimit ? { spendLimit: output.spendLimit } : {}) };
  } catch (error) {
    if (isCancellation(error)) {
      state.endSpan(span, "error", { attributes: { outcome: "cancelled" } });
      throw error;
    }
    // Out of attempts (an internal failure each time) or out of time: the node failed; the scheduler decides on a retry.
    const cause = error instanceof ActivityFailure ? error.cause : error;
    const failure = cause instanceof TimeoutFailure ? "timeout" : cause instanceof ApplicationFailure && cause.type ? cause.type : "failed";
    const reason = `${failure}: ${cause instanceof Error ? cause.message : String(cause)}`.slice(0, 500);
    // The tokens every attempt spent count against the run tree's one budget, as a failed child run's do. Runs
    // before the patch dropped them, and replay so.
    const usage = state.patches.stepsInHistory ? usageOfNodeFailure(cause) : undefined;
    if (usage) state.addUsage(usage);
    state.endSpan(span, "error", { ...(usage ? { tokens: usage } : {}), attributes: { outcome: "failed", reason: reason.slice(0, 300) } });
    return { ok: false, runId: task.workflowId, reason, failure, cancelled: false, ...(usage ? { usage } : {}) };
  }
}
