// FROZEN: the plan executor of runs recorded before the plan scheduler
// (plan-scheduler.ts, patch "plan-scheduler"). Their histories must replay
// command for command, so this file changes only to follow renamed imports.
//
// Executes a plan (issue 17; seed: dag-orchestration-design.md): each node is
// a child agent run on its objective, with its dependencies' results as
// context. A node starts the moment its last dependency completes — the
// workflow wakes on each finished node, no polling — and independent nodes run
// at once, up to the plan's concurrency. A node that fails after its retries
// marks its dependents skipped ("dependency X failed") while independent
// branches go on. Then the synthesis agent (if any) answers from the sink
// nodes' results. Every step is an event in the run ledger, which the live DAG
// view reads.
import { condition, workflowInfo } from "@temporalio/workflow";
import type { AgentConfig } from "../../lib/agents/schemas";
import { sinkNodes, type Plan, type PlanNode, type PlanNodeStatus, type PlanOutcome } from "../../lib/contract/plan";
import type { TokenUsage } from "../../lib/contract/types";
import type { AgentRunInput } from "../../lib/contract/workflow";
import { runChildTask } from "./child-task";
import type { TurnResult } from "./final-answer";
import { RunFailure } from "./run-failure";
import type { RunState } from "./run-state";

import { DEFAULT_PLAN_SETTINGS } from "./plan-settings";

/** A dependency's result as a node's context may quote it. */
const RESULT_QUOTED = 4000;

interface NodeResult {
  text: string;
  data?: unknown;
}

type ChildOutcome = { ok: true; result: NodeResult; usage: TokenUsage } | { ok: false; reason: string; usage?: TokenUsage };

interface PlanRun {
  state: RunState;
  input: AgentRunInput;
  planner: AgentConfig;
  /** Checks the token budget after a child's usage is added (may wait for an approver). */
  checkBudget: () => Promise<void> | undefined;
}

function quote(result: NodeResult): string {
  const text = result.data !== undefined ? JSON.stringify(result.data) : result.text;
  return text.length > RESULT_QUOTED ? `${text.slice(0, RESULT_QUOTED)}…` : text;
}

/** What a node's agent is asked: its objective, the user's task, and what its dependencies found. */
function nodeMessage(node: PlanNode, task: string, results: ReadonlyMap<string, NodeResult>, byId: ReadonlyMap<string, PlanNode>): string {
  const context = node.dependsOn.map((dep) => `- ${dep} (${byId.get(dep)?.agent ?? "?"}): ${quote(results.get(dep) ?? { text: "" })}`);
  return [`Objective: ${node.objective}`, `The user's task: ${task}`, ...(context.length ? ["Results of the nodes this one depends on:", ...context] : [])].join("\n");
}

/** Runs one agent on one task as a child run (worker/workflows/child-task.ts). */
async function runChild(run: PlanRun, agentName: string, message: string, workflowId: string, attributes: Record<string, string | number>, parentId: string): Promise<ChildOutcome> {
  const result = await runChildTask({ state: run.state, input: run.input, caller: run.planner }, { agentName, message, workflowId, parentSpanId: parentId, attributes });
  if (!result.ok) return result;
  return { ok: true, result: { text: result.text, ...(result.data !== undefined ? { data: result.data } : {}) }, usage: result.usage };
}

/** Executes `plan` for the turn's `task`; its answer is the synthesis (or the sink nodes' results). */
export async function executePlanLegacy(run: PlanRun, plan: Plan, task: string, parentId: string): Promise<TurnResult> {
  const { state, input } = run;
  const settings = { ...DEFAULT_PLAN_SETTINGS, ...input.graph.plan };
  const runId = workflowInfo().workflowId;
  const planSpan = state.startSpan("plan", `plan: ${plan.nodes.length} nodes`, parentId, { nodes: plan.nodes.length, concurrency: settings.concurrency });
  const byId = new Map(plan.nodes.map((n) => [n.id, n]));
  const status = new Map<string, PlanNodeStatus>(plan.nodes.map((n) => [n.id, "pending"]));
  const results = new Map<string, NodeResult>();
  let running = 0;
  // Bumped whenever a node finishes: the loop waits on it instead of polling.
  let finished = 0;
  // A node's run that threw (a cancellation): the loop rethrows it.
  const thrown: { error?: unknown; happened: boolean } = { happened: false };

  const finish = (node: PlanNode, next: "completed" | "failed" | "skipped", extra: { runId: string | null; reason?: string; usage?: TokenUsage; attempts: number }) => {
    status.set(node.id, next);
    state.emit({ type: "plan_node_finished", nodeId: node.id, status: next, ...extra });
    finished++;
  };

  const runNode = async (node: PlanNode): Promise<void> => {
    const message = nodeMessage(node, task, results, byId);
    let last: ChildOutcome = { ok: false, reason: "not run" };
    let childRunId = "";
    let attempt = 0;
    for (attempt = 1; attempt <= 1 + settings.nodeRetries; attempt++) {
      childRunId = `${runId}.node-${node.id}-${attempt}`;
      state.emit({ type: "plan_node_started", nodeId: node.id, agentName: node.agent, runId: childRunId, attempt });
      last = await runChild(run, node.agent, message, childRunId, { nodeId: node.id, attempt }, planSpan.id);
      if (last.ok) break;
    }
    running--;
    if (last.ok) {
      results.set(node.id, last.result);
      finish(node, "completed", { runId: childRunId, usage: last.usage, attempts: Math.min(attempt, 1 + settings.nodeRetries) });
    } else {
      finish(node, "failed", { runId: childRunId, reason: last.reason, ...(last.usage ? { usage: last.usage } : {}), attempts: 1 + settings.nodeRetries });
    }
    const waiting = run.checkBudget();
    if (waiting) await waiting;
  };

  for (;;) {
    // Skip what can no longer run (transitively, in plan order), then start what can, up to the concurrency.
    let changed = true;
    while (changed) {
      changed = false;
      for (const node of plan.nodes) {
        if (status.get(node.id) !== "pending") continue;
        const broken = node.dependsOn.find((dep) => status.get(dep) === "failed" || status.get(dep) === "skipped");
        if (broken) {
          finish(node, "skipped", { runId: null, reason: `dependency ${broken} ${status.get(broken) === "failed" ? "failed" : "was skipped"}`, attempts: 0 });
          changed = true;
        }
      }
    }
    for (const node of plan.nodes) {
      if (running >= settings.concurrency) break;
      if (status.get(node.id) !== "pending" || !node.dependsOn.every((dep) => status.get(dep) === "completed")) continue;
      status.set(node.id, "running");
      running++;
      void runNode(node).catch((error: unknown) => {
        if (!thrown.happened) Object.assign(thrown, { error, happened: true });
        finished++;
      });
    }
    if ([...status.values()].every((s) => s === "completed" || s === "failed" || s === "skipped")) break;
    const seen = finished;
    await condition(() => finished !== seen);
    if (thrown.happened) throw thrown.error;
  }

  const counts = { completed: 0, failed: 0, skipped: 0 };
  for (const s of status.values()) if (s === "completed" || s === "failed" || s === "skipped") counts[s]++;
  const outcome: PlanOutcome = counts.completed === plan.nodes.length ? "completed" : counts.completed === 0 ? "failed" : "partially_failed";
  state.emit({ type: "plan_finished", outcome, ...counts });
  state.endSpan(planSpan, outcome === "completed" ? "ok" : "error", { attributes: { outcome, ...counts } });
  if (outcome === "failed") throw new RunFailure("plan_failed", `every node of the plan failed or was skipped (${counts.failed} failed, ${counts.skipped} skipped)`);

  const sinks = sinkNodes(plan).filter((n) => results.has(n.id));
  const summary = sinks.map((n) => `- ${n.id} (${n.agent}): ${quote(results.get(n.id) ?? { text: "" })}`);
  const lost = plan.nodes.filter((n) => status.get(n.id) !== "completed").map((n) => `${n.id} (${status.get(n.id)})`);
  if (settings.synthesisAgent) {
    const message = [`The user's task: ${task}`, "Write the answer from these results:", ...summary, ...(lost.length ? [`Not done: ${lost.join(", ")}`] : [])].join("\n");
    const synthesis = await runChild(run, settings.synthesisAgent, message, `${runId}.synthesis`, { synthesis: 1 }, planSpan.id);
    if (!synthesis.ok) throw new RunFailure("plan_failed", `the synthesis by ${settings.synthesisAgent} failed: ${synthesis.reason}`);
    return { kind: "answer", text: synthesis.result.text, ...(synthesis.result.data !== undefined ? { data: synthesis.result.data } : {}) };
  }
  const only = sinks.length === 1 ? results.get(sinks[0]!.id) : undefined;
  if (only && lost.length === 0) return { kind: "answer", text: only.text, ...(only.data !== undefined ? { data: only.data } : {}) };
  return { kind: "answer", text: [...summary, ...(lost.length ? [`Not done: ${lost.join(", ")}`] : [])].join("\n") };
}
