// Executes a plan (issue 17, reworked by issue 22; seed: dag-orchestration-design.md).
// Each node is a child agent run on its objective, with its dependencies'
// results as context. A node starts the moment its last dependency completes
// (the scheduler wakes on each settled node, no polling), up to the plan's
// concurrency and within the run tree's token budget: every node gets a share
// of what the root has left, reserved while it runs and settled when it ends.
//
// Every node promise is owned by the scheduler and awaited before it returns
// or throws. When the plan stops early (the run is cancelled or times out, the
// budget runs out or is refused, a node throws), running children are
// cancelled and awaited, and every node that did not finish is recorded as
// `cancelled` with the reason, so the ledger, the live DAG and the runs list
// tell the truth.
import { CancellationScope, CancelledFailure, condition, isCancellation, workflowInfo } from "@temporalio/workflow";
import type { AgentConfig } from "../../lib/agents/schemas";
import { sinkNodes, type Plan, type PlanNode, type PlanNodeStatus, type PlanOutcome } from "../../lib/contract/plan";
import type { ResultRef, TokenUsage } from "../../lib/contract/types";
import { RESULTS_HEADING } from "../../lib/contract/plan-results";
import type { AgentRunInput } from "../../lib/contract/workflow";
import { tokenLimit } from "./budget";
import { childLimits, runChildTask, type ChildTask, type ChildTaskResult } from "./child-task";
import { runNodeInline, runsAsModelCalls } from "./inline-node";
import { agentHasGuardrails } from "./guardrails";
import type { TurnResult } from "./final-answer";
import { DEFAULT_PLAN_SETTINGS } from "./plan-settings";
import { RunFailure } from "./run-failure";
import type { RunState } from "./run-state";
import { meetSpendLimit } from "./spend-limit";

/**
 * The child failures a node retries: they may pass on another attempt. A soft
 * failure (`agent_failed`, DD-4), an answer that failed its schema, a step or
 * budget limit, a bad configuration or an exhausted router would only fail again.
 */
export const RETRYABLE_NODE_FAILURES: ReadonlySet<string> = new Set(["model_error", "tool_error", "timeout"]);

/** A dependency's result as a node's context may quote it. */
const RESULT_QUOTED = 4000;

/**
 * How much of the user's task a node's message quotes. Every node's input is
 * recorded in the plan run's history: a 1,000-node plan quoting a 90 KB task in
 * full outgrew Temporal's history limit (50 MB) by its third layer. The node's
 * own objective is what it works on; the task is context.
 */
const TASK_QUOTED = 8000;

/**
 * The bytes of child inputs one workflow task may start. Each start carries
 * its child's input, and a task's commands travel in one gRPC message (4 MB):
 * a wide layer of a large plan, all started at once, exceeded it and the server
 * terminated the run (GrpcMessageTooLarge, seen with 100 nodes of a 1,000-node
 * plan). Past this budget the next starts wait until Temporal reports the
 * previous ones started (the next workflow task).
 */
const START_BYTES_PER_TASK = 1_000_000;

interface NodeResult {
  text: string;
  data?: unknown;
  /** The run that holds the result (a dependent reads it from the ledger by this id). */
  runId: string;
}

export interface PlanRun {
  state: RunState;
  input: AgentRunInput;
  planner: AgentConfig;
  /** Checks the token budget after a child's usage is added (may wait for an approver, or throw budget_exceeded). */
  checkBudget: () => Promise<void> | undefined;
  /** When the turn must have its answer (workflow time, ms): the children's deadline (with a grace). */
  deadline: number;
  /** Why the plan stops when `error` ends it (a cancellation, the run timeout, a failure), for the nodes' records. */
  stopReason: (error: unknown) => string;
}

/** How one node ended, as its runner reports it to the scheduler. */
interface NodeSettled {
  node: PlanNode;
  last: ChildTaskResult | null;
  attempts: number;
  usage: TokenUsage;
}

function quote(result: NodeResult): string {
  const text = result.data !== undefined ? JSON.stringify(result.data) : result.text;
  return text.length > RESULT_QUOTED ? `${text.slice(0, RESULT_QUOTED)}…` : text;
}

/**
 * What a node's agent is asked: its objective, the user's task, and what its
 * dependencies found. By reference (runs since the inline-plan-nodes patch):
 * the message ends with the heading and the model call reads each result from
 * the ledger (worker/activities/dependency-results.ts); quoted, for runs
 * recorded before: each result's first 4,000 characters.
 */
function nodeMessage(node: PlanNode, task: string, results: ReadonlyMap<string, NodeResult>, byId: ReadonlyMap<string, PlanNode>, byReference: boolean): { message: string; refs: ResultRef[] } {
  const quotedTask = task.length > TASK_QUOTED ? `${task.slice(0, TASK_QUOTED)}… (the first ${TASK_QUOTED} of ${task.length} characters)` : task;
  const lines = [`Objective: ${node.objective}`, `The user's task: ${quotedTask}`];
  if (node.dependsOn.length === 0) return { message: lines.join("\n"), refs: [] };
  if (byReference) {
    const refs = node.dependsOn.map((dep) => ({ nodeId: dep, agent: byId.get(dep)?.agent ?? "?", runId: results.get(dep)?.runId ?? "" }));
    return { message: [...lines, RESULTS_HEADING].join("\n"), refs };
  }
  const context = node.dependsOn.map((dep) => `- ${dep} (${byId.get(dep)?.agent ?? "?"}): ${quote(results.get(dep) ?? { text: "", runId: "" })}`);
  return { message: [...lines, RESULTS_HEADING, ...context].join("\n"), refs: [] };
}

const addUsage = (a: TokenUsage, b: TokenUsage | undefined): TokenUsage => (b ? { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens } : a);
const totalOf = (u: TokenUsage) => u.inputTokens + u.outputTokens;

/**
 * The prefix of this plan's child run ids. The run's first plan keeps the ids
 * runs have always had (`<run>.node-<id>-<attempt>`); every later plan (a
 * follow-up's, or a re-plan after a handoff back) gets its own (`<run>.p2.node-…`),
 * so two plans never share a child run, its ledger row or its conversation.
 */
function childIdBase(state: RunState): string {
  state.plansExecuted++;
  const runId = workflowInfo().workflowId;
  return state.plansExecuted === 1 ? runId : `${runId}.p${state.plansExecuted}`;
}

/** Executes `plan` for the turn's `task`; its answer is the synthesis (or the sink nodes' results). */
export async function schedulePlan(run: PlanRun, plan: Plan, task: string, parentId: string): Promise<TurnResult> {
  const { state, input } = run;
  const settings = { ...DEFAULT_PLAN_SETTINGS, ...input.graph.plan };
  const idBase = childIdBase(state);
  const planSpan = state.startSpan("plan", `plan: ${plan.nodes.length} nodes`, parentId, { nodes: plan.nodes.length, concurrency: settings.concurrency });
  const byId = new Map(plan.nodes.map((n) => [n.id, n]));
  const status = new Map<string, PlanNodeStatus>(plan.nodes.map((n) => [n.id, "pending"]));
  const results = new Map<string, NodeResult>();
  /** Tokens reserved by running nodes (their share of the budget, released when they settle). */
  const reserved = new Map<string, number>();
  const inFlight: Promise<void>[] = [];
  const nodes = new CancellationScope();
  /** Bumped whenever a node settles: the scheduler waits on it instead of polling. */
  let settledCount = 0;
  const thrown: { error?: unknown; happened: boolean } = { happened: false };
  /** Set once the plan stops early: no node attempt starts after it. */
  let stopping: string | null = null;
  /** Children whose start was issued and not yet reported; bumped when one is (starts are paced by it). */
  let starting = 0;
  let startsReported = 0;
  const graphBytes = JSON.stringify(input.graph).length;
  /** Results by reference and nodes inline (runs since the inline-plan-nodes patch; older runs replay as recorded). */
  const byReference = state.patches.inlinePlanNodes;
  /**
   * A node whose run was cancelled directly (a person cancelled the node's run, not the plan) breaks its dependents
   * as a failed node does, and a plan left with nothing done ends cancelled (engine-patches.ts stepsInHistory).
   * Before, its dependents stayed pending and the plan waited for its run timeout; older runs replay so.
   */
  const cancelBreaks = state.patches.stepsInHistory;

  const finish = (node: PlanNode, next: "completed" | "failed" | "skipped" | "cancelled", extra: { runId: string | null; reason?: string; usage?: TokenUsage; attempts: number }) => {
    status.set(node.id, next);
    state.emit({ type: "plan_node_finished", nodeId: node.id, status: next, ...extra });
  };

  const reservedByOthers = (nodeId: string) => [...reserved].reduce((sum, [id, tokens]) => (id === nodeId ? sum : sum + tokens), 0);

  const runNode = async (node: PlanNode, initialShare: number): Promise<NodeSettled> => {
    let share = initialShare;
    const { message, refs } = nodeMessage(node, task, results, byId, byReference);
    const agent = input.graph.agents.find((a) => a.name === node.agent);
    // A node whose agent's run is model calls alone runs as an activity of this run, not a child workflow.
    // A taped run's nodes run as child workflows, whose model calls ask the tape (an inline node calls the model itself).
    // An agent with guardrails runs as a child workflow too: its checks run there (an inline node's activity has none).
    const inline = byReference && !state.patches.tape && runsAsModelCalls(agent, input.graph) && !(state.patches.guardrails && agentHasGuardrails(agent));
    const runTask = inline ? (t: ChildTask) => runNodeInline({ state, input, caller: run.planner }, agent, t) : (t: ChildTask) => runChildTask({ state, input, caller: run.planner }, t);
    let usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
    let last: ChildTaskResult | null = null;
    let attempts = 0;
    let retriesLeft = settings.nodeRetries;
    for (let attempt = 1; stopping === null; attempt++) {
      // Every attempt draws on the node's one share: a retry gets what the failed attempts left.
      const left = share - totalOf(usage);
      if (attempt > 1 && left <= 0) break;
      attempts = attempt;
      const runId = `${idBase}.node-${node.id}-${attempt}`;
      state.emit({ type: "plan_node_started", nodeId: node.id, agentName: node.agent, runId, attempt });
      // Attempt 1 was counted when the scheduler started the node; a retry starts on its own.
      let reported = false;
      if (attempt > 1) starting++;
      const child = runTask({
          agentName: node.agent,
          message,
          ...(refs.length ? { results: refs } : {}),
          workflowId: runId,
          parentSpanId: planSpan.id,
          attributes: { nodeId: node.id, attempt },
          // The root alone asks approvers for tokens; a node that spends its share fails with budget_exceeded.
          limits: childLimits(left, run.deadline),
          // Every attempt of the node names its side effects alike: a transfer made by attempt 1 is not made again.
          sideEffectScope: `${idBase}.node-${node.id}`,
          onStarted: () => {
            reported = true;
            starting--;
            startsReported++;
          },
        });
      // A start refused because the plan is being cancelled is a cancelled attempt, not a thrown node.
      last = await child
        .catch((error: unknown) => {
          if (isCancellation(error)) return { ok: false, runId, reason: "cancelled before it started", failure: "cancelled", cancelled: true } as const;
          throw error;
        })
        .finally(() => {
          // A child that never started (refused, cancelled first) holds no place in the pace.
          if (!reported) {
            starting--;
            startsReported++;
          }
        });
      usage = addUsage(usage, last.usage);
      if (last.ok || last.cancelled) break;
      if (last.spendLimit) {
        // An inline node met a reached spend limit before calling its model (spend-limits-every-call): the plan's
        // run stops (the limit's "stop", a rejection, an expiry: thrown, so the plan stops) or asks once for every
        // node waiting; approved, the node gets another attempt, which checks again. Not a retry of a failure.
        await meetSpendLimit(state, input.graph.limits, last.spendLimit);
        continue;
      }
      if (last.failure === "budget_exceeded" && input.graph.limits.onBudget === "ask") {
        // The node spent its share and the tree is out of tokens: the root asks an approver (once for every node
        // waiting), and a grant gives the node another attempt with a share of the new budget.
        const waiting = run.checkBudget();
        if (!waiting) break;
        await waiting;
        share = totalOf(usage) + Math.max(1, tokenLimit(state, input.graph.limits) - state.totalTokens() - reservedByOthers(node.id));
        reserved.set(node.id, share);
        // Not a retry of a failure: it does not spend the node's retries.
        continue;
      }
      if (!RETRYABLE_NODE_FAILURES.has(last.failure) || retriesLeft-- <= 0) break;
    }
    return { node, last, attempts, usage };
  };

  const settle = ({ node, last, attempts, usage }: NodeSettled) => {
    reserved.delete(node.id);
    if (last?.ok) {
      results.set(node.id, { text: last.text, runId: last.runId, ...(last.data !== undefined ? { data: last.data } : {}) });
      finish(node, "completed", { runId: last.runId, usage, attempts });
    } else if (!last || last.cancelled) {
      // Not stopping: the node's own run was cancelled while the plan goes on.
      const reason = stopping ?? (cancelBreaks && last ? "its run was cancelled" : "the plan stopped");
      finish(node, "cancelled", { runId: last?.runId ?? null, reason, ...(totalOf(usage) ? { usage } : {}), attempts });
    } else {
      finish(node, "failed", { runId: last.runId, reason: last.reason, ...(totalOf(usage) ? { usage } : {}), attempts });
    }
    settledCount++;
  };

  /** Marks what can no longer run as skipped (transitively, in plan order). */
  const skipBroken = () => {
    for (let changed = true; changed; ) {
      changed = false;
      for (const node of plan.nodes) {
        if (status.get(node.id) !== "pending") continue;
        const broken = node.dependsOn.find((dep) => status.get(dep) === "failed" || status.get(dep) === "skipped" || (cancelBreaks && status.get(dep) === "cancelled"));
        if (!broken) continue;
        const how = status.get(broken);
        finish(node, "skipped", { runId: null, reason: `dependency ${broken} ${how === "failed" ? "failed" : how === "cancelled" ? "was cancelled" : "was skipped"}`, attempts: 0 });
        changed = true;
      }
    }
  };

  /** Starts the nodes whose dependencies are done, up to the concurrency, each with an equal share of the unreserved budget. */
  const startReady = () => {
    const running = [...status.values()].filter((s) => s === "running").length;
    const ready = plan.nodes
      .filter((n) => status.get(n.id) === "pending" && n.dependsOn.every((dep) => status.get(dep) === "completed"))
      .slice(0, Math.max(0, settings.concurrency - running));
    if (ready.length === 0) return;
    const unreserved = tokenLimit(state, input.graph.limits) - state.totalTokens() - [...reserved.values()].reduce((a, b) => a + b, 0);
    // Nothing left beside what running nodes hold: wait for one to settle (an exhausted budget is checked after it).
    if (unreserved <= 0) return;
    const share = Math.max(1, Math.floor(unreserved / ready.length));
    let bytes = 0;
    for (const node of ready) {
      // Paced: once this task's starts fill the budget, the rest wait for them to be reported (at least one goes).
      const size = graphBytes + Math.min(task.length, TASK_QUOTED) + node.objective.length + node.dependsOn.length * (byReference ? 200 : RESULT_QUOTED);
      if (starting > 0 && bytes + size > START_BYTES_PER_TASK) break;
      bytes += size;
      starting++;
      status.set(node.id, "running");
      reserved.set(node.id, share);
      const settled = nodes.run(() => runNode(node, share)).then(settle, (error: unknown) => {
        // A node that threw (not a child's failure, which is a result): the plan stops.
        if (!thrown.happened) Object.assign(thrown, { error, happened: true });
        settle({ node, last: null, attempts: 0, usage: { inputTokens: 0, outputTokens: 0 } });
      });
      inFlight.push(settled);
    }
  };

  const done = () => [...status.values()].every((s) => s !== "pending" && s !== "running");
  try {
    for (;;) {
      skipBroken();
      if (done()) break;
      startReady();
      if (done()) break;
      const seen = settledCount;
      const reportedBefore = startsReported;
      // Wake when a node settles, or when paced starts were reported and nodes still wait to start.
      await condition(() => settledCount !== seen || (startsReported !== reportedBefore && starting === 0));
      if (thrown.happened) throw thrown.error;
      // No node starts while the budget is exhausted or an approver is asked for more (onBudget "ask").
      const waiting = run.checkBudget();
      if (waiting) await waiting;
    }
  } catch (error) {
    stopping = run.stopReason(error);
    nodes.cancel();
    await CancellationScope.nonCancellable(async () => {
      await Promise.all(inFlight);
      for (const node of plan.nodes) if (status.get(node.id) === "pending") finish(node, "cancelled", { runId: null, reason: stopping ?? "the plan stopped", attempts: 0 });
      const counts = countOf(status);
      state.emit({ type: "plan_finished", outcome: "cancelled", ...counts, reason: stopping ?? "the plan stopped" });
      state.endSpan(planSpan, "error", { attributes: { outcome: "cancelled", ...counts, reason: (stopping ?? "").slice(0, 300) } });
    });
    throw error;
  }
  await Promise.all(inFlight);

  const counts = countOf(status);
  const cancelledNode = cancelBreaks ? plan.nodes.find((n) => status.get(n.id) === "cancelled") : undefined;
  if (counts.completed === 0 && cancelledNode) {
    // Nothing done, and a node's run was cancelled by a person: the plan was stopped, not failed, and so is its run
    // (as when a plan's synthesis is cancelled).
    const reason = `node ${cancelledNode.id}'s run was cancelled`;
    state.emit({ type: "plan_finished", outcome: "cancelled", ...counts, reason });
    state.endSpan(planSpan, "error", { attributes: { outcome: "cancelled", ...counts, reason } });
    throw new CancelledFailure(reason);
  }
  const outcome: PlanOutcome = counts.completed === plan.nodes.length ? "completed" : counts.completed === 0 ? "failed" : "partially_failed";
  // Cancelled nodes are counted once a plan that ran to its end may hold them.
  const cancelledCount: { cancelled?: number } = cancelBreaks && counts.cancelled > 0 ? { cancelled: counts.cancelled } : {};
  state.emit({ type: "plan_finished", outcome, completed: counts.completed, failed: counts.failed, skipped: counts.skipped, ...cancelledCount });
  state.endSpan(planSpan, outcome === "completed" ? "ok" : "error", { attributes: { outcome, completed: counts.completed, failed: counts.failed, skipped: counts.skipped, ...(cancelledCount.cancelled ? { cancelled: cancelledCount.cancelled } : {}) } });
  if (outcome === "failed") throw new RunFailure("plan_failed", `every node of the plan failed or was skipped (${counts.failed} failed, ${counts.skipped} skipped)`);

  const sinks = sinkNodes(plan).filter((n) => results.has(n.id));
  const summary = sinks.map((n) => `- ${n.id} (${n.agent}): ${quote(results.get(n.id) ?? { text: "", runId: "" })}`);
  const lost = plan.nodes.filter((n) => status.get(n.id) !== "completed").map((n) => `${n.id} (${status.get(n.id)})`);
  if (settings.synthesisAgent) {
    const notDone = lost.length ? [`Not done: ${lost.join(", ")}`] : [];
    const refs = sinks.map((n) => ({ nodeId: n.id, agent: n.agent, runId: results.get(n.id)?.runId ?? "" }));
    // By reference, the results follow the message (the model call reads them from the ledger).
    const message = byReference
      ? [`The user's task: ${task}`, "Write the answer from these results.", ...notDone, RESULTS_HEADING].join("\n")
      : [`The user's task: ${task}`, "Write the answer from these results:", ...summary, ...notDone].join("\n");
    const left = Math.max(1, tokenLimit(state, input.graph.limits) - state.totalTokens());
    const synthesis = await runChildTask(
      { state, input, caller: run.planner },
      {
        agentName: settings.synthesisAgent,
        message,
        ...(byReference && refs.length ? { results: refs } : {}),
        workflowId: `${idBase}.synthesis`,
        parentSpanId: planSpan.id,
        attributes: { synthesis: 1 },
        limits: childLimits(left, run.deadline),
      },
    );
    if (!synthesis.ok && synthesis.cancelled) throw new CancelledFailure(synthesis.reason);
    if (!synthesis.ok) throw new RunFailure("plan_failed", `the synthesis by ${settings.synthesisAgent} failed: ${synthesis.reason}`);
    return { kind: "answer", text: synthesis.text, ...(synthesis.data !== undefined ? { data: synthesis.data } : {}) };
  }
  const only = sinks.length === 1 ? results.get(sinks[0]!.id) : undefined;
  if (only && lost.length === 0) return { kind: "answer", text: only.text, ...(only.data !== undefined ? { data: only.data } : {}) };
  return { kind: "answer", text: [...summary, ...(lost.length ? [`Not done: ${lost.join(", ")}`] : [])].join("\n") };
}

function countOf(status: ReadonlyMap<string, PlanNodeStatus>): { completed: number; failed: number; skipped: number; cancelled: number } {
  const counts = { completed: 0, failed: 0, skipped: 0, cancelled: 0 };
  for (const s of status.values()) if (s === "completed" || s === "failed" || s === "skipped" || s === "cancelled") counts[s]++;
  return counts;
}
