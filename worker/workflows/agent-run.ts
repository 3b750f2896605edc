// The agent workflow: one execution per run (and per sub-agent conversation).
// Loop: inference → every tool call of the response in parallel → results
// appended → next iteration, until a final answer. Then it waits for a
// follow-up (root run) or the next message from its parent (conversation).
// Everything that grows with the run goes to the run ledger (database) as it
// happens; the workflow keeps counters and what is still open.
import {
  ApplicationFailure,
  CancellationScope,
  ContinueAsNew,
  condition,
  continueAsNew,
  isCancellation,
  allHandlersFinished,
  upsertSearchAttributes,
  workflowInfo,
} from "@temporalio/workflow";
import type { AgentRunInput, RunOutcome } from "../../lib/contract/workflow";
import type { FailureReason } from "../../lib/contract/types";
import { SA_PENDING_APPROVALS, SA_RUN_STATUS } from "../../lib/temporal/search-attribute-keys";
import { renderPrompt } from "../../lib/agents/template";
import { isPlanner, plannerInstructions, routerInstructions } from "../../lib/contract/system-tools";
import { RunState } from "./run-state";
import { decidePatches } from "./engine-patches";
import { AgentLoop, TurnInterrupted, type TurnAnswer } from "./agent-loop";
import { closeInterruptedTurn, takeTurnMessages } from "./follow-ups";
import { closeDown } from "./close-down";
import { RunFailure } from "./run-failure";
import { RunLedger } from "./run-ledger";
import { ledgerSummary, registerHandlers } from "./run-handlers";
import { notifyParent } from "./sub-agents";
import { requireSignedStart } from "./run-start-check";
import { screenMessage, screenTask } from "./guardrail-hooks";

const nowIso = () => new Date(Date.now()).toISOString();

/**
 * Waits on a durable timer for the next message (a follow-up for a root run,
 * the parent's next message for a conversation) and records the wait on the
 * trace: its deadline, and whether the timer fired or a message ended it.
 */
async function waitForMessage(state: RunState, input: AgentRunInput): Promise<boolean> {
  const seconds = input.conversation ? input.graph.limits.subAgentIdleTimeoutSeconds : input.graph.limits.followUpWindowSeconds;
  // No window: nothing to wait for. `condition(fn, 0)` records the SDK's internal patch marker
  // (__sdk_internal_patch_number:1), which a replay sometimes met in another workflow task than the
  // one that recorded it (a nondeterminism error); runs started before ENGINE_BEHAVIOUR 1 keep the call.
  if (seconds === 0 && state.patches.zeroWindowCloses) return state.inbox.length > 0;
  const span = state.startSpan("timer", input.conversation ? "idle wait for the parent" : "follow-up window", state.runSpanId || null, {
    timer: input.conversation ? "sub_agent_idle" : "follow_up_window",
    timeoutSeconds: seconds,
    deadline: new Date(Date.now() + seconds * 1000).toISOString(),
  });
  try {
    const received = await condition(() => state.inbox.length > 0, seconds * 1000);
    state.endSpan(span, "ok", { attributes: { ended: received ? "message" : "fired" } });
    return received;
  } catch (error) {
    state.endSpan(span, "error", { attributes: { ended: isCancellation(error) ? "cancelled" : "error" } });
    throw error;
  }
}

export async function agentRunWorkflow(input: AgentRunInput): Promise<RunOutcome> {
  const state = input.carried ? RunState.restore(input.carried) : new RunState();
  // After a handoff the receiving agent speaks (and keeps speaking across continue-as-new).
  const agent = input.graph.agents.find((a) => a.name === (state.currentAgent ?? input.agentName));
  const identity = {
    runId: workflowInfo().workflowId,
    rootRunId: input.rootRunId,
    parentRunId: input.parentRunId,
    agentName: input.agentName,
    task: input.message,
    context: input.context,
    startedBy: input.startedBy,
    graphName: input.graphName ?? null,
    agentVersionId: input.agentVersionId ?? null,
  };
  const ledger = new RunLedger(state, identity, () => ledgerSummary(state));
  ledger.start();
  state.patches = decidePatches(input);
  const loop = new AgentLoop(state, input, agent, ledger);
  registerHandlers(state, loop, input);

  // Search attributes carry a coarse status (the fine one is a query away) and
  // are upserted only on change: each upsert costs a history event and a
  // visibility write, which would otherwise add latency to every iteration.
  let published = "";
  const publishStatus = () => {
    state.touch();
    const fine = state.status();
    const coarse = fine === "thinking" || fine === "awaiting_tool" ? "running" : fine;
    const pending = state.pendingApprovals().length;
    if (`${coarse}/${pending}` === published) return;
    published = `${coarse}/${pending}`;
    upsertSearchAttributes([
      { key: SA_RUN_STATUS, value: coarse },
      { key: SA_PENDING_APPROVALS, value: pending },
    ]);
  };
  loop.onStatusChange = publishStatus;
  const closing = { input, state, approvals: loop.approvals, ledger };

  let turnUsageStart = state.usage;
  try {
    if (state.patches.runStartChecked) await requireSignedStart(input, ledger, state.patches.stepsInHistory || state.patches.tapeStartCheckInHistory === true);
    if (!agent) throw new RunFailure("invalid_config", `agent "${input.agentName}" is not in the graph`);
    if (!input.carried) {
      const runSpan = state.startSpan("run", input.agentName, null, { depth: input.depth });
      state.runSpanId = runSpan.id;
      const prompt = renderPrompt(agent.systemPrompt, input.context);
      const instructions = isPlanner(agent, input.graph) ? plannerInstructions(input.graph) : agent.kind === "router" ? routerInstructions(agent, input.graph) : "";
      state.pushMessage({ role: "system", content: prompt.text + instructions });
      // The task passes the agent's input guardrails before anything records it (a masked task is what every view shows).
      // Only under the patch: an await, even of nothing, moves what the run schedules next (a replay must meet it where it was).
      const task = state.patches.guardrails ? await screenTask(state, loop, input, runSpan.id, identity) : input.message;
      state.emit({ type: "run_started", agentName: input.agentName, task, depth: input.depth });
      if (prompt.missing.length) state.emit({ type: "error", kind: "template", message: `system prompt placeholders without a value: ${prompt.missing.join(", ")}` });
      // First, ahead of a follow-up that was sent before this task ran (its handler may have queued it already).
      // The task's images travel as references (the inference activity loads their bytes); only runs with images carry the key.
      // A plan node's dependencies' results travel as references too (the model call reads them from the ledger).
      state.inbox.unshift({ content: task, ...(input.images?.length ? { images: input.images } : {}), ...(input.results?.length ? { results: input.results } : {}), turn: 1, initial: true });
    }
    await loop.prepareTools();

    for (;;) {
      if (!state.inTurn) {
        // One message per turn; messages that interrupted a turn start the next one together.
        const taken = takeTurnMessages(state.inbox);
        const next = taken[0];
        if (!next) {
          state.baseStatus = state.lastOutput !== null ? "completed" : state.baseStatus;
          publishStatus();
          if (!(await waitForMessage(state, input))) break;
          continue;
        }
        state.turn = next.turn ?? state.turn + 1;
        // A follow-up passes the speaking agent's input guardrails before it is recorded (the task did at the start).
        if (state.patches.guardrails) for (const message of taken) if (!message.initial) message.content = await screenMessage(state, loop, message.content);
        state.turnTask = taken.map((m) => m.content).join("\n\n");
        state.turnSender = next.sender ?? null;
        state.planAttempts = 0;
        state.planRejections = 0;
        state.guardrailRewrites = 0;
        state.routingFailures = [];
        for (const message of taken) {
          const images = message.images?.length ? { images: message.images } : {};
          state.pushMessage({ role: "user", content: message.content, ...images, ...(message.results?.length ? { results: message.results } : {}) });
          if (!message.initial) state.emit({ type: "user_message", content: message.content, ...images });
        }
        state.inTurn = true;
        state.endedAt = null;
        state.iterationsThisTurn = 0;
        state.turnStartedAt = nowIso();
        state.turnStartIteration = state.iteration;
        turnUsageStart = state.usage;
      }
      let answer: TurnAnswer;
      try {
        answer = await loop.respond();
      } catch (error) {
        if (!(error instanceof TurnInterrupted)) throw error;
        // A new message cancelled the turn's work (the graph's interrupt policy): close it, then take the message.
        await closeInterruptedTurn(state, loop.approvals, loop);
        publishStatus();
        continue;
      }
      const output = answer.text;
      state.inTurn = false;
      state.lastOutput = output;
      if (answer.data !== undefined) state.outputData = JSON.stringify(answer.data);
      state.baseStatus = "completed";
      state.endedAt = nowIso();
      state.emit(answer.data !== undefined ? { type: "run_completed", output, data: answer.data } : { type: "run_completed", output });
      publishStatus();
      // One task (a router's chosen agent): no follow-up window; the run closes with its answer.
      if (input.oneShot) break;
      await notifyParent(input, state, { response: output, isComplete: false, failed: false, ...(answer.data !== undefined ? { data: answer.data } : {}) }, turnUsageStart);
      if (loop.shouldContinueAsNew()) {
        await condition(allHandlersFinished);
        await ledger.flushed();
        return continueAsNew<typeof agentRunWorkflow>({ ...input, carried: state.snapshot() });
      }
    }
    // Idle long enough: the run (or conversation) closes.
    state.closed = true;
    const runSpan = state.runSpan();
    if (runSpan) state.endSpan(runSpan, "ok", { tokens: state.usage });
    await closeDown(closing, { parentReply: { reply: { response: state.lastOutput ?? "", isComplete: true, failed: false }, usageBefore: state.usage }, awaitHandlers: true });
    // A person's message signalled while the run closed (a `queue` graph's messages are signals, which Temporal
    // accepts with or without a worker up) is answered by the run's next execution, never dropped.
    if (state.patches.followUpPolicy && !input.conversation && state.inbox.length > 0) {
      await ledger.flushed();
      return continueAsNew<typeof agentRunWorkflow>({ ...input, carried: state.snapshot() });
    }
    return { status: "completed", output: state.lastOutput, ...(state.outputData !== null ? { outputData: state.outputData } : {}), usage: state.usage, iterations: state.iteration };
  } catch (error) {
    if (error instanceof ContinueAsNew) throw error;
    if (isCancellation(error) && !(error instanceof RunFailure) && input.conversation && !state.inTurn && state.lastOutput !== null) {
      // The parent closed an idle conversation (its own run ended): this sub-run's work is done, not cancelled.
      return CancellationScope.nonCancellable(async () => {
        const runSpan = state.runSpan();
        if (runSpan) state.endSpan(runSpan, "ok", { tokens: state.usage });
        publishStatus();
        await closeDown(closing, { awaitHandlers: false });
        return { status: "completed" as const, output: state.lastOutput, usage: state.usage, iterations: state.iteration };
      });
    }
    const runSpan = state.runSpan();
    state.endedAt = nowIso();
    if (isCancellation(error) && !(error instanceof RunFailure)) {
      state.terminal = { status: "cancelled", reason: "cancelled", message: "the run was cancelled" };
      state.emit({ type: "run_cancelled", message: "the run was cancelled" });
      if (runSpan) state.endSpan(runSpan, "error", { attributes: { outcome: "cancelled" } });
      await CancellationScope.nonCancellable(async () => publishStatus());
      await closeDown(closing, { awaitHandlers: false });
      throw error;
    }
    const reason: FailureReason = error instanceof RunFailure ? error.reason : "model_error";
    const message = error instanceof Error ? error.message : String(error);
    const details = error instanceof RunFailure ? error.details : undefined;
    state.terminal = { status: "failed", reason, message, ...(details ? { details } : {}) };
    state.emit(details ? { type: "run_failed", reason, message, details } : { type: "run_failed", reason, message });
    if (runSpan) state.endSpan(runSpan, "error", { attributes: { outcome: reason } });
    publishStatus();
    await closeDown(closing, { parentReply: { reply: { response: `${input.agentName} failed (${reason}): ${message}`, isComplete: true, failed: true }, usageBefore: turnUsageStart }, awaitHandlers: false });
    // The tokens it spent travel with the failure: a router or a plan counts them against its budget too.
    throw ApplicationFailure.create({ type: reason, message, nonRetryable: true, details: [{ usage: state.usage }] });
  }
}
