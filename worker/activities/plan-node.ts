// A plan node whose agent needs no workflow of its own, run as one activity of
// the plan's run (issue 22 §4). Such an agent holds no tools, sub-agents or
// handoffs, answers in plain text and is no router or planner: its run is
// model calls and nothing else, so a child workflow (its start, its first
// task, a tool description, ledger writes, its completion: several round
// trips through Temporal per node) bought it nothing but latency.
//
// The node is still a run of its own in the ledger, written as its child
// workflow would write it (run row, run and iteration and inference spans,
// events, conversation), so the live DAG, the run page, search and the API
// read it the same way. Its ids are fixed by its input (run id, span and event
// numbers, start time), so a retried attempt rewrites the same records.
//
// Attempts of the activity may overlap: Temporal starts attempt 2 once attempt
// 1's heartbeat timed out, and attempt 1 (its event loop held by a long
// synchronous write) may still be working. Its writes are fenced by attempt
// (lib/run-ledger/fence.ts): a newer attempt's first write replaces what older
// ones wrote, an older attempt's write is refused and the attempt stops, and an
// attempt that hears it lost its place (not a cancel the plan asked for)
// records no cancellation. The tokens every attempt spent travel in its
// heartbeat to the next one and in its failure to the workflow: one budget per
// run tree counts them.
import { ApplicationFailure, CancelledFailure, Context } from "@temporalio/activity";
import { hostname } from "node:os";
import type { AgentConfig } from "../../lib/agents/schemas";
import { renderPrompt } from "../../lib/agents/template";
import type { ResultRef, TokenUsage } from "../../lib/contract/types";
import type { LedgerRunIdentity } from "../../lib/contract/workflow";
import { LedgerFencedError, type FencedLedgerBatch } from "../../lib/run-ledger/fence";
import type { ChatMessage } from "../../lib/contract/types";
import { ACTIVITY_ERRORS } from "../../lib/contract/definitions";
import type { Db } from "../../lib/db/prisma";
import type { ModelRegistry } from "../models/registry";
import { ModelCallError } from "../models/types";
import { RunState } from "../workflows/run-state";
import { withDependencyResults } from "./dependency-results";
import { spanDurationMs } from "../../lib/contract/step-duration";
import { spendLimitStopMessage, type SpendLimitHit } from "../../lib/contract/spend-limit-approval";
import { createRunSpendCheck, type RunSpendCheck } from "../../lib/spend-limits/server/running";

export interface PlanNodeInput {
  identity: LedgerRunIdentity;
  /** The agent, with its model resolved (an `inherit` model is the planner's). */
  agent: AgentConfig;
  /** The node's dependencies' results, by reference. */
  results: ResultRef[];
  depth: number;
  /** When the node's run started (workflow time: the same on every attempt, see LedgerConflictError). */
  startedAt: string;
  /** The node's share of the run tree's tokens: at it, the node fails budget_exceeded as a child run would. */
  tokenBudget: number;
  /** The run tree's step cap (limits.maxSteps), when it has one. */
  maxSteps?: number;
  /**
   * Each model call first checks the spend limits of the run tree (identity.rootRunId), as the model-call activity
   * does (the spend-limits-every-call patch; older executions never send it). At a reached limit no model is called:
   * the node's run ends failed with spend_limit_reached and the output carries the limit, for the plan's run to stop
   * or ask (worker/workflows/plan-scheduler.ts).
   */
  spendCheck?: true;
}

export type PlanNodeOutput =
  | { ok: true; text: string; usage: TokenUsage }
  | { ok: false; failure: string; reason: string; usage: TokenUsage; spendLimit?: SpendLimitHit };

/** Model calls of one node: a retryable provider error is tried again, as the inference activity's retry policy would. */
const MODEL_ATTEMPTS = 5;
const HEARTBEAT_EVERY_MS = 1000;
/** How long a node's model may work before its run is written as running (else it is written once, when it ends). */
const SHOW_RUNNING_AFTER_MS = 500;
const WORKER_ID = `${hostname()}/${process.pid}`;

/** The agent workflow's answer to a call of a tool the agent does not hold (tool-calls.ts), so the model hears the same. */
const noSuchTool = (name: string) => `There is no tool named "${name}". Available tools: none.`;

/** What an attempt's heartbeat carries: who runs it, and the tokens the node's run has spent so far (every attempt's). */
export interface PlanNodeHeartbeat {
  worker: string;
  attempt: number;
  usage?: TokenUsage;
}

/** The tokens earlier attempts spent, from the last heartbeat before this attempt (none: zero; a worker of an older release sent none). */
export function usageOfHeartbeat(details: unknown): TokenUsage {
  const usage: unknown = details && typeof details === "object" && "usage" in details ? details.usage : undefined;
  if (!usage || typeof usage !== "object" || !("inputTokens" in usage) || !("outputTokens" in usage)) return { inputTokens: 0, outputTokens: 0 };
  const { inputTokens, outputTokens } = usage;
  return typeof inputTokens === "number" && typeof outputTokens === "number" ? { inputTokens, outputTokens } : { inputTokens: 0, outputTokens: 0 };
}

/** An attempt's failure, carrying the tokens the node's run spent (the workflow counts them when no attempt is left). */
function failureWithUsage(error: unknown, usage: TokenUsage): ApplicationFailure {
  const details = [{ usage }];
  if (error instanceof ApplicationFailure) return ApplicationFailure.create({ type: error.type ?? undefined, message: error.message, nonRetryable: error.nonRetryable ?? false, details, cause: error.cause });
  // Retryable, named as the SDK would name the error had it crossed as it is.
  const cause = error instanceof Error ? error : new Error(String(error));
  return ApplicationFailure.create({ type: cause.name, message: cause.message, details, cause });
}

/** One attempt of the activity, as its node's run sees it. */
interface NodeAttempt {
  /** Temporal's attempt number, from 1: the fence of every batch it writes. */
  number: number;
  /** The node's run: its usage starts at what earlier attempts spent. */
  state: RunState;
  signal: AbortSignal;
  /** Whether the cancel this attempt heard is the plan's (else it lost its place: timed out, or its worker shuts down). */
  cancelAsked(): boolean;
}

export interface PlanNodeActivityDeps {
  db: Db;
  ledger: { write(batch: FencedLedgerBatch): Promise<void> };
  models: ModelRegistry;
  /** The spend check of working runs (default: the database's, lib/spend-limits/server/running.ts). */
  spendCheck?: RunSpendCheck;
}

export function createPlanNodeActivities({ db, ledger, models, spendCheck = createRunSpendCheck(db) }: PlanNodeActivityDeps) {
  return {
    async runPlanNode(input: PlanNodeInput): Promise<PlanNodeOutput> {
      const context = Context.current();
      const { attempt } = context.info;
      const state = new RunState();
      state.usage = usageOfHeartbeat(context.info.heartbeatDetails);
      const heartbeat = () => context.heartbeat({ worker: WORKER_ID, attempt, usage: state.usage } satisfies PlanNodeHeartbeat);
      // The first heartbeat goes out after a second: a node that answers sooner costs Temporal no heartbeat at all.
      const timer = setInterval(heartbeat, HEARTBEAT_EVERY_MS);
      // Details unknown (an older server): a cancel counts as the plan's, as it always did.
      const cancelAsked = () => context.cancellationDetails?.cancelRequested ?? true;
      try {
        return await runNode(input, { number: attempt, state, signal: context.cancellationSignal, cancelAsked });
      } catch (error) {
        if (error instanceof LedgerFencedError) {
          // A newer attempt writes the run: this one's work goes nowhere (Temporal no longer waits for it).
          context.log.warn(`plan node run ${input.identity.runId}: attempt ${attempt} stops, its write was refused: ${error.message}`);
          throw ApplicationFailure.create({ type: "superseded", message: error.message, details: [{ usage: state.usage }] });
        }
        if (error instanceof CancelledFailure) throw error;
        // The next attempt reads the tokens from this last heartbeat (the SDK sends it before the failure).
        heartbeat();
        throw failureWithUsage(error, state.usage);
      } finally {
        clearInterval(timer);
      }
    },
  };

  async function runNode(input: PlanNodeInput, attempt: NodeAttempt): Promise<PlanNodeOutput> {
    const { agent, identity } = input;
    const { state, signal } = attempt;
    state.startedAt = input.startedAt;
    state.baseStatus = "thinking";
    let endedAt: string | null = null;
    let output: string | null = null;
    const write = () =>
      ledger.write({
        run: identity,
        summary: {
          status: state.status(),
          iteration: state.iteration,
          usage: state.usage,
          pendingApprovals: 0,
          lastEventSeq: state.lastSeq,
          messageCount: state.messageCount,
          generation: attempt.number - 1,
          output,
          error: state.terminal ? { reason: state.terminal.reason, message: state.terminal.message } : null,
          startedAt: state.startedAt,
          endedAt,
        },
        ...state.outbox.take(),
        fence: { attempt: attempt.number },
      });

    const runSpan = state.startSpan("run", identity.agentName, null, { depth: input.depth });
    state.runSpanId = runSpan.id;
    const prompt = renderPrompt(agent.systemPrompt, identity.context);
    state.pushMessage({ role: "system", content: prompt.text });
    state.emit({ type: "run_started", agentName: identity.agentName, task: identity.task, depth: input.depth });
    if (prompt.missing.length) state.emit({ type: "error", kind: "template", message: `system prompt placeholders without a value: ${prompt.missing.join(", ")}` });
    state.pushMessage({ role: "user", content: identity.task, ...(input.results.length ? { results: input.results } : {}) });
    const conversation: ChatMessage[] = [
      { role: "system", content: prompt.text },
      { role: "user", content: identity.task, ...(input.results.length ? { results: input.results } : {}) },
    ];
    // A retried attempt takes the run over at once: what an older attempt wrote is replaced, and that attempt's
    // later writes are refused rather than landing beside this one's.
    if (attempt.number > 1) await write();

    const fail = async (failure: "model_error" | "budget_exceeded" | "step_limit_exceeded" | "spend_limit_reached", reason: string, spendLimit?: SpendLimitHit): Promise<PlanNodeOutput> => {
      endedAt = new Date().toISOString();
      state.terminal = { status: "failed", reason: failure, message: reason };
      state.emit({ type: "run_failed", reason: failure, message: reason });
      state.endSpan(runSpan, "error", { attributes: { outcome: failure } });
      await write();
      return { ok: false, failure, reason: `${failure}: ${reason}`, usage: state.usage, ...(spendLimit ? { spendLimit } : {}) };
    };

    try {
      const maxIterations = Math.min(agent.maxIterations, input.maxSteps ?? Infinity);
      for (;;) {
        if (state.iteration >= maxIterations) {
          return await fail("step_limit_exceeded", `${agent.name} reached its limit of ${maxIterations} iterations without a final answer`);
        }
        state.iteration++;
        const iterationSpan = state.startSpan("iteration", `iteration ${state.iteration}`, runSpan.id, { iteration: state.iteration });
        state.emit({ type: "iteration_started", iteration: state.iteration });
        const inferenceSpan = state.startSpan("inference", agent.model, iterationSpan.id);
        state.emit({ type: "inference_started", iteration: state.iteration, model: agent.model });
        // A reached spend limit of the run tree: no model is called, the node's run ends naming the limit, and the
        // plan's run stops or asks to go on (then the node gets another attempt, a run of its own).
        const hit = input.spendCheck ? await spendCheck(identity.rootRunId) : null;
        if (hit) {
          state.endSpan(inferenceSpan, "error", { attributes: { spendLimitReached: hit.limitId, spendLimitMessage: hit.message } });
          state.endSpan(iterationSpan, "error");
          const why = hit.onReached === "stop" ? "the limit stops running runs" : "the plan's run asks to go on";
          return await fail("spend_limit_reached", spendLimitStopMessage(hit, why), hit);
        }
        // A model that takes a while: the node's run shows as running (run row, spans, first message) while it
        // works. A quick answer is written once, with its ending: a fast plan's node costs one write, not two.
        let written: Promise<unknown> = Promise.resolve(null);
        const early = setTimeout(() => {
          written = write().then(
            () => null,
            (error: unknown) => error,
          );
        }, SHOW_RUNNING_AFTER_MS);
        const started = Date.now();
        let answer;
        try {
          answer = await callModel(agent, await withDependencyResults(db, conversation), signal);
        } catch (error) {
          clearTimeout(early);
          // A lost write is thrown (the attempt is retried and rewrites every record of the node).
          const lost = await written;
          if (lost !== null) throw lost;
          if (!(error instanceof ModelCallError)) throw error;
          state.endSpan(inferenceSpan, "error");
          state.endSpan(iterationSpan, "error");
          return await fail("model_error", error.message);
        }
        clearTimeout(early);
        const writeFailure = await written;
        if (writeFailure !== null) throw writeFailure;
        const { response, attempt } = answer;
        state.addUsage(response.usage);
        state.endSpan(inferenceSpan, "ok", { tokens: response.usage, attempts: attempt });
        // The step's duration is its span's (lib/contract/step-duration.ts); the model's own time is modelMs.
        const latencyMs = spanDurationMs(inferenceSpan) ?? Date.now() - started;
        state.emit({ type: "inference_completed", iteration: state.iteration, model: agent.model, usage: response.usage, latencyMs, modelMs: Date.now() - started, toolCalls: response.toolCalls.length, attempts: attempt, startedAt: new Date(started).toISOString() });
        const used = state.totalTokens();
        if (used >= input.tokenBudget * 0.9 && !state.budgetWarned) {
          state.budgetWarned = true;
          state.emit({ type: "budget_warning", budget: "tokens", used, limit: input.tokenBudget });
        }
        if (used >= input.tokenBudget) {
          state.endSpan(iterationSpan, "error");
          return await fail("budget_exceeded", `the run used ${used} tokens of its ${input.tokenBudget}-token budget`);
        }
        if (response.toolCalls.length === 0) {
          output = response.content ?? "";
          state.pushMessage({ role: "assistant", content: output });
          state.endSpan(iterationSpan, "ok");
          endedAt = new Date().toISOString();
          state.baseStatus = "completed";
          state.emit({ type: "run_completed", output });
          state.endSpan(runSpan, "ok", { tokens: state.usage });
          await write();
          return { ok: true, text: output, usage: state.usage };
        }
        // No tools were offered: each call is answered as the agent loop answers an unknown tool, and the model goes on.
        const calls = response.toolCalls.map((c) => ({ id: c.id, type: "function" as const, function: { name: c.name, arguments: c.arguments } }));
        const assistant: ChatMessage = { role: "assistant", content: response.content, tool_calls: calls };
        state.pushMessage(assistant);
        conversation.push(assistant);
        for (const call of calls) {
          const reply: ChatMessage = { role: "tool", tool_call_id: call.id, name: call.function.name, content: noSuchTool(call.function.name) };
          state.pushMessage(reply);
          conversation.push(reply);
        }
        state.endSpan(iterationSpan, "error");
      }
    } catch (error) {
      if (error instanceof LedgerFencedError || (!(error instanceof CancelledFailure) && !signal.aborted)) throw error;
      // Timed out or its worker shutting down: another attempt runs (or will run) the node, whose run is not cancelled.
      if (!attempt.cancelAsked()) throw error instanceof CancelledFailure ? error : new CancelledFailure("the attempt lost its place");
      // Cancelled (the plan stopped): the node's run says so before the plan records it.
      endedAt = new Date().toISOString();
      state.terminal = { status: "cancelled", reason: "cancelled", message: "the run was cancelled" };
      state.emit({ type: "run_cancelled", message: "the run was cancelled" });
      for (const span of [...state.openSpans.values()].reverse()) state.endSpan(span, "error", { attributes: { outcome: "cancelled" } });
      await write();
      throw error instanceof CancelledFailure ? error : new CancelledFailure("the plan stopped");
    }
  }

  /** One model call, with the provider's retryable errors tried again (backing off). */
  async function callModel(agent: AgentConfig, messages: ChatMessage[], signal: AbortSignal) {
    const { provider, modelName } = models.resolve(agent.model);
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await provider.generate({ model: agent.model, agentName: agent.name, messages, tools: [], temperature: agent.temperature, maxOutputTokens: agent.maxOutputTokens, attempt, signal }, modelName);
        return { response, attempt };
      } catch (error) {
        if (signal.aborted) {
          const reason: unknown = signal.reason;
          throw reason instanceof CancelledFailure ? reason : new CancelledFailure("the plan stopped");
        }
        if (error instanceof ModelCallError && (!error.retryable || attempt >= MODEL_ATTEMPTS)) throw error;
        if (!(error instanceof ModelCallError)) {
          console.error(`worker: the model call of plan node run ${agent.name} failed:`, error);
          throw ApplicationFailure.create({ type: ACTIVITY_ERRORS.infrastructure, message: "the model call failed on an internal problem (see the worker log)" });
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 1000 * 2 ** (attempt - 1))));
      }
    }
  }
}

export type PlanNodeActivities = ReturnType<typeof createPlanNodeActivities>;
