// The model call of one iteration: where it runs (a local activity for the
// demo model, a regular one with heartbeats for a real provider), how it
// carries the run ledger, the deadline it gets from the run timeout, and the
// events, span and token usage it leaves behind.
import {
  ActivityCancellationType,
  ActivityFailure,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  TimeoutFailure,
  workflowInfo,
  type LocalActivityOptions,
} from "@temporalio/workflow";
import type { AgentActivities, EagerTools, InferenceOutput } from "../activities/agent";
import type { FunctionTool } from "../models/types";
import type { AgentConfig, RunLimits } from "../../lib/agents/schemas";
import type { TraceSpan } from "../../lib/contract/types";
import type { LedgerBatch } from "../../lib/contract/workflow";
import { checkTokenBudget, runTimeoutFailure } from "./budget";
import type { RunLedger } from "./run-ledger";
import { RunFailure } from "./run-failure";
import { meetSpendLimit } from "./spend-limit";
import type { RunState } from "./run-state";
import { spanDurationMs } from "../../lib/contract/step-duration";

// Executions before steps-in-history ran demo-model calls and side-effect-free
// built-in tools as local activities (one round trip per iteration); their
// replays still do. Every newer execution runs them as regular activities
// (inferencePath below).
const INFERENCE_OPTIONS: LocalActivityOptions = {
  startToCloseTimeout: "5 minutes",
  localRetryThreshold: "1 minute",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "30 seconds", maximumAttempts: 5 },
  // A cancelled call still finishes writing the ledger batch it carries; waiting for it keeps the
  // run's writes in order (a later write never lands before it).
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
};

/** Where a model call runs, and whether it carries the run's pending ledger batch. */
interface InferencePath {
  local: boolean;
  /** The call writes the pending ledger batch itself (in the run ledger's turn), and may run eager tools. */
  carries: boolean;
  run: AgentActivities["runInference"];
}

/**
 * The model call, bounded by what is left of the run timeout.
 *
 * Executions with steps-in-history (engine-patches.ts stepsInHistory) call every
 * model as a regular activity; the demo model's carries the ledger batch and runs
 * eager tools, as the local call did: one round trip per iteration, and its result is an event
 * of its own, so whatever a query, signal or cancel does around it, a replay meets
 * it at the same place. The batch's bytes reach history as the call's input, as the
 * background writer's batches already do; a large one is claim-checked by the
 * payload codec (lib/temporal/claim-check-codec.ts).
 *
 * Older executions keep what they recorded: the demo model as a local activity, a
 * real provider (and a taped run's calls) as a regular activity after the ledger
 * was written.
 */
function inferencePath(model: string, deadline: number, patches: { stepsInHistory: boolean; tapeCallsInHistory?: boolean }): InferencePath {
  // Measured when the call is scheduled (a local one may wait for its turn first).
  const scheduleToCloseTimeout = () => Math.max(1, deadline - Date.now());
  const regular = (cancellationType?: ActivityCancellationType): AgentActivities["runInference"] => (input) =>
    proxyActivities<AgentActivities>({
      startToCloseTimeout: INFERENCE_OPTIONS.startToCloseTimeout,
      heartbeatTimeout: "10 seconds",
      retry: INFERENCE_OPTIONS.retry,
      scheduleToCloseTimeout: scheduleToCloseTimeout(),
      ...(cancellationType !== undefined ? { cancellationType } : {}),
    }).runInference(input);
  if (patches.stepsInHistory) {
    // The demo model answers in milliseconds: its call carries the batch, and a cancelled call still finishes
    // writing it (waiting for it keeps the run's writes in order). A real provider's call can take a minute and
    // learns of a cancel only at its next heartbeat: it carries nothing (the ledger is written first, one round
    // trip against seconds of generation), so a cancel lands at once and the HTTP request is abandoned.
    if (model.startsWith("demo/")) return { local: false, carries: true, run: regular(ActivityCancellationType.WAIT_CANCELLATION_COMPLETED) };
    return { local: false, carries: false, run: regular() };
  }
  // A taped run's calls are regular activities whatever the model (EnginePatches.tapeCallsInHistory).
  if (model.startsWith("demo/") && patches.tapeCallsInHistory !== true) {
    return { local: true, carries: true, run: (input) => proxyLocalActivities<AgentActivities>({ ...INFERENCE_OPTIONS, scheduleToCloseTimeout: scheduleToCloseTimeout() }).runInference(input) };
  }
  return { local: false, carries: false, run: regular() };
}

/** Whether a model call checks the spend limits of its run tree (engine-patches.ts spendLimitsInRun, spendLimitsEveryCall). */
function spendChecked(patches: RunState["patches"]): boolean {
  if (!patches.spendLimitsInRun) return false;
  return !patches.tape || patches.spendLimitsEveryCall;
}

/** A local activity that ran out of its schedule-to-close time fails with the TimeoutFailure itself (a regular one wraps it). */
function isScheduleToCloseTimeout(error: unknown): boolean {
  const timeout = error instanceof ActivityFailure ? error.cause : error;
  return timeout instanceof TimeoutFailure && timeout.timeoutType === "SCHEDULE_TO_CLOSE";
}

function failureMessage(error: unknown): string {
  if (error instanceof ActivityFailure && error.cause instanceof Error) return error.cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** What one model call needs from the turn. */
export interface ModelCall {
  state: RunState;
  agent: AgentConfig;
  limits: RunLimits;
  ledger: RunLedger;
  /** The tools described for the agent. */
  tools: FunctionTool[];
  /** When the turn must have its final answer (workflow time, ms). */
  deadline: number;
  /** The tools the call may run itself (asked only when a local call carries the ledger). */
  eagerTools: () => EagerTools | undefined;
  /** The schema the final answer must match (an output schema, or a router's decision); the call checks the answer. */
  answerSchema?: { schema: Record<string, unknown>; strict: boolean } | null;
  /** The run tree's root, whose scope the spend limits are checked against (spendLimitsInRun). */
  rootRunId: string;
}

/**
 * Calls the model under an inference span, records its usage and events, and
 * checks the token budget; a failed call fails the run (model_error, or
 * timeout when the run timeout ended it).
 */
export async function infer(call: ModelCall, parent: TraceSpan): Promise<InferenceOutput> {
  const { state, agent, ledger } = call;
  const span = state.startSpan("inference", agent.model, parent.id);
  state.emit({ type: "inference_started", iteration: state.iteration, model: agent.model });
  let output;
  try {
    const inference = inferencePath(agent.model, call.deadline, state.patches);
    const run = (batch: LedgerBatch | null) =>
      inference.run({
        runId: workflowInfo().workflowId,
        iteration: state.iteration,
        agentName: agent.name,
        model: agent.model,
        messageCount: state.messageCount,
        ledger: batch,
        tools: call.tools,
        temperature: agent.temperature,
        maxOutputTokens: agent.maxOutputTokens,
        // Only set when used, so the input of every other run is what it always was.
        ...(state.conversationStart ? { conversationStart: state.conversationStart } : {}),
        ...(call.answerSchema ? { answerSchema: call.answerSchema } : {}),
        ...(inference.carries && ledger.carrying ? { eagerTools: call.eagerTools() } : {}),
        // A taped run asks its tape first (worker/activities/tape.ts); other runs' inputs are unchanged.
        ...(state.patches.tape ? { tape: state.patches.tape } : {}),
        // Only under the patch, so executions started before it send (and get) exactly what they did. A taped run
        // (a fork, an experiment unit) checks under spend-limits-every-call, and only its live calls (the activity
        // asks the tape first: a recorded step costs nothing).
        ...(spendChecked(state.patches) ? { spendCheck: { rootRunId: call.rootRunId } } : {}),
      });
    // A carrying call writes the pending ledger batch while the model works. An older execution's regular
    // call (a real provider, a taped run) read the whole conversation from the ledger, written first.
    if (inference.carries) output = await ledger.exclusive(run, { carry: true });
    else {
      await ledger.written();
      output = await run(null);
    }
  } catch (error) {
    state.endSpan(span, "error");
    if (isCancellation(error)) throw error;
    if (isScheduleToCloseTimeout(error)) throw runTimeoutFailure(call.limits);
    throw new RunFailure("model_error", failureMessage(error));
  }
  if (output.spendLimit) {
    // No model was called: the span ends naming the limit, and once the run may go on the call is made anew.
    state.endSpan(span, "error", { attributes: { spendLimitReached: output.spendLimit.limitId, spendLimitMessage: output.spendLimit.message } });
    await meetSpendLimit(state, call.limits, output.spendLimit);
    return infer(call, parent);
  }
  state.addUsage(output.usage);
  state.emit({
    type: "inference_completed",
    iteration: state.iteration,
    model: agent.model,
    usage: output.usage,
    // The step's duration is its span's (lib/contract/step-duration.ts): the span ends below, at this same workflow time.
    latencyMs: spanDurationMs(span, Date.now()) ?? output.latencyMs,
    modelMs: output.latencyMs,
    toolCalls: output.toolCalls.length,
    attempts: output.attempt,
    ...(output.startedAt ? { startedAt: output.startedAt } : {}),
    ...(output.replayed ? { replayed: true, recordedUsage: output.replayed.recordedUsage } : {}),
    ...(output.edited ? { edited: output.edited } : {}),
  });
  const attributes = {
    ...(output.retryReason ? { retryReason: output.retryReason } : {}),
    ...(output.toolCallsFromText ? { toolCallsFromText: true } : {}),
    // A step reused from the run's tape: the trace badges it, and what the recording cost stays visible.
    ...(output.replayed
      ? { replayed: true, recordedInputTokens: output.replayed.recordedUsage.inputTokens, recordedOutputTokens: output.replayed.recordedUsage.outputTokens, recordedModel: output.replayed.model }
      : {}),
    // A fork's edited output: from the tape, but written by someone (who, when), never a recording.
    ...(output.edited ? { edited: true, editedBy: output.edited.by, editedAt: output.edited.at } : {}),
  };
  state.endSpan(span, "ok", { tokens: output.usage, attempts: output.attempt, ...(Object.keys(attributes).length ? { attributes } : {}) });
  // Awaited only when the run waits for more tokens: runs that never wait replay exactly as before.
  const extension = checkTokenBudget(state, call.limits);
  if (extension) await extension;
  return output;
}
