// One agent's turn inside the workflow: iterations of a model call and the
// parallel tool calls of its response, until a final answer, within the run
// timeout and the iteration cap. The jobs themselves live beside it: the
// model call (inference.ts), tool calls (tool-calls.ts), approvals
// (approvals.ts), sub-agent conversations (sub-agents.ts) and budgets
// (budget.ts); this class coordinates them.
import { CancellationScope, allHandlersFinished, condition, continueAsNew, isCancellation, sleep, workflowInfo } from "@temporalio/workflow";
import type { AgentConfig, RunLimits } from "../../lib/agents/schemas";
import { effectiveModel, INHERIT_MODEL } from "../../lib/agents/model-inheritance";
import { answerSchemaOf, guardrailRewritePrompt, isPlanner, RETURN_TOOL, routingDecisionSchema } from "../../lib/contract/system-tools";
import type { AgentGraph } from "../../lib/agents/schemas";
import type { ToolCall, TraceSpan } from "../../lib/contract/types";
import type { Guardrail } from "../../lib/guardrails/schemas";
import { guardrailFailure } from "./guardrails";
import { besideCheck, maskTypedResponse, screenAnswer, screenCalls, type GuardrailHold } from "./guardrail-hooks";
import type { AgentRunInput, SubAgentReplySignal } from "../../lib/contract/workflow";
import { Approvals } from "./approvals";
import { checkTokenBudget, HistoryBudget, runTimeoutFailure } from "./budget";
import { infer } from "./inference";
import { SubAgentConversations } from "./sub-agents";
import type { RunLedger } from "./run-ledger";
import { RunFailure } from "./run-failure";
import type { RunState } from "./run-state";
import { ToolCalls } from "./tool-calls";
import { closeCalls, failReason, judgeAnswer, type TurnResult } from "./final-answer";
import { handOff, handoffRequest } from "./handoff";
import { offeredChildren, routeTurn } from "./routing";
import { planCheck, planTurn } from "./planning";
import type { TurnContext, TurnMode } from "./turn-context";

/** Each orchestration mode's turn, by the kind of agent speaking. */
const TURN_MODES: Record<"planner" | "router" | "agent", TurnMode> = {
  planner: planTurn,
  router: routeTurn,
  agent: (turn) => turn.iterate(),
};

function modeOf(agent: AgentConfig, graph: AgentGraph): keyof typeof TURN_MODES {
  if (isPlanner(agent, graph)) return "planner";
  return agent.kind === "router" ? "router" : "agent";
}

/** The turn in progress was cancelled for a new message (the graph's `interrupt` follow-up policy). */
export class TurnInterrupted extends Error {
  constructor() {
    super("the turn was interrupted by a new message");
    this.name = "TurnInterrupted";
  }
}

/** A turn's answer: its text and, when the agent has an output schema, the typed data. */
export interface TurnAnswer {
  text: string;
  data?: unknown;
}

export class AgentLoop implements TurnContext {
  onStatusChange: () => void = () => undefined;
  readonly approvals: Approvals;
  private readonly conversations: SubAgentConversations;
  private readonly toolCalls: ToolCalls;
  private readonly history: HistoryBudget;

  constructor(
    readonly state: RunState,
    readonly input: AgentRunInput,
    /** The agent speaking: the run's own, or the receiver of the last handoff. */
    private agentConfig: AgentConfig | undefined,
    private readonly ledger: RunLedger,
  ) {
    this.conversations = new SubAgentConversations(state, input, () => this.checkBudget());
    this.approvals = new Approvals(state, input, (tool) => this.schemaOf(tool), () => this.onStatusChange());
    this.toolCalls = new ToolCalls({
      state,
      input,
      ledger,
      approvals: this.approvals,
      conversations: this.conversations,
      agent: () => this.agent,
      onStatusChange: () => this.onStatusChange(),
    });
    this.history = new HistoryBudget(input.graph.limits);
  }

  receiveReply(reply: SubAgentReplySignal): void {
    this.conversations.receiveReply(reply);
  }

  /** The agent speaking, with the model it runs (its own, or inherited: DD-7). */
  get agent(): AgentConfig {
    const config = this.agentConfig;
    if (!config) throw new RunFailure("invalid_config", `agent "${this.input.agentName}" is not in the graph`);
    if (config.model !== INHERIT_MODEL) return config;
    return { ...config, model: effectiveModel(config.model, this.state.handoffModel ?? this.input.parentModel) };
  }

  private get limits(): RunLimits {
    return this.input.graph.limits;
  }

  prepareTools(): Promise<void> {
    return this.toolCalls.prepare();
  }

  schemaOf(toolName: string): Record<string, unknown> | undefined {
    return this.toolCalls.schemaOf(toolName);
  }

  shouldContinueAsNew(): boolean {
    return this.history.shouldContinueAsNew();
  }

  /** Checks the token budget: a promise only when the run waits for an approver to grant more tokens (onBudget "ask"). */
  checkBudget(): Promise<void> | undefined {
    return checkTokenBudget(this.state, this.limits);
  }

  /** When the current turn must have its final answer (workflow time, ms). */
  deadline = Infinity;
  /** The run timeout struck the current turn (its work scope is being cancelled). */
  private timedOut = false;
  /** The work scope of the turn in progress (null between turns) and whether a new message is interrupting it (follow-ups.ts). */
  private work: CancellationScope | null = null;
  private interrupting = false;
  /** The tool calls of the last model response still waiting for their results (answered "no result" if the turn is interrupted). */
  openCalls: { id: string; name: string }[] = [];
  /** The sub-agent conversations that existed when the turn began (those started in it end with its work scope). */
  conversationsBefore = new Set<string>();
  /** Turns this execution has answered or is answering, and the one in progress (0: none), for the kept deadline timers. */
  private turnsStarted = 0;
  private activeTurn = 0;

  /** Why work in flight stops when `error` ends the turn: what a plan records on the nodes it cancels. */
  stopReason(error: unknown): string {
    if (error instanceof RunFailure) return `${error.reason}: ${error.message}`;
    if (this.interrupting && isCancellation(error)) return "interrupted: a new message arrived";
    if (this.timedOut) return `timeout: no final answer within the run timeout of ${this.limits.runTimeoutSeconds} s`;
    if (isCancellation(error)) return "cancelled: the run was cancelled";
    return error instanceof Error ? error.message : String(error);
  }

  /** Cancels the turn in progress for a new message (once); whether a turn is being interrupted. */
  interrupt(): boolean {
    if (!this.work) return false;
    if (!this.interrupting) {
      this.interrupting = true;
      this.work.cancel();
    }
    return true;
  }

  /** A `parallel` input guardrail's check running beside the turn's first model call (guardrail-hooks.ts), until that call takes it. */
  private inputCheck: Promise<unknown> | null = null;

  checkBesideFirstCall(check: Promise<unknown>): void {
    // Observed at once: a trip before anyone awaits it is not an unhandled rejection.
    void check.catch(() => undefined);
    this.inputCheck = check;
  }

  /** The parallel input check not yet taken, for the turn's first model call (or its answer) to wait for. */
  private takeInputCheck(): Promise<unknown> | null {
    const check = this.inputCheck;
    this.inputCheck = null;
    return check;
  }

  /** Runs iterations until the model answers; bounded by the run timeout. Throws TurnInterrupted when a new message cancelled it. */
  async respond(): Promise<TurnAnswer> {
    this.openCalls = [];
    this.conversationsBefore = new Set(this.state.conversations.keys());
    try {
      return await this.respondWithin();
    } catch (error) {
      if (this.interrupting && isCancellation(error)) throw new TurnInterrupted();
      throw error;
    } finally {
      this.work = null;
      this.interrupting = false;
      // An interrupted turn's check goes with it: the next turn's first call never waits for another turn's text.
      this.inputCheck = null;
    }
  }

  private async respondWithin(): Promise<TurnAnswer> {
    const startedAt = Date.parse(this.state.turnStartedAt ?? new Date(Date.now()).toISOString());
    this.deadline = startedAt + this.limits.runTimeoutSeconds * 1000;
    const remaining = Math.max(1, this.deadline - Date.now());
    this.timedOut = false;
    const work = new CancellationScope();
    this.work = work;
    if (this.state.patches.turnDeadlineKept) {
      // Never cancelled (engine-patches.ts turnDeadlineKept): a timer that fires after its turn ended is a
      // no-op, and a pending one goes with the execution. Cancelling the run cancels it with the root scope.
      const turn = ++this.turnsStarted;
      this.activeTurn = turn;
      void sleep(remaining).then(
        () => {
          if (this.activeTurn !== turn) return;
          this.timedOut = true;
          work.cancel();
        },
        () => undefined,
      );
      try {
        return await work.run(() => this.answerTurn());
      } catch (error) {
        if (this.timedOut && !this.interrupting && isCancellation(error)) throw runTimeoutFailure(this.limits);
        throw error;
      } finally {
        this.activeTurn = 0;
      }
    }
    const timer = new CancellationScope();
    void timer
      .run(() => sleep(remaining))
      .then(
        () => {
          this.timedOut = true;
          work.cancel();
        },
        () => undefined,
      );
    try {
      return await work.run(() => this.answerTurn());
    } catch (error) {
      if (this.timedOut && !this.interrupting && isCancellation(error)) throw runTimeoutFailure(this.limits);
      throw error;
    } finally {
      timer.cancel();
    }
  }

  /** The turn: the agent's iterations, a router's routing, and the agents handoffs pass it to. */
  private async answerTurn(): Promise<TurnAnswer> {
    for (;;) {
      const result = await TURN_MODES[modeOf(this.agent, this.input.graph)](this);
      // A turn that answered without a model call of its own (a router's, a planner's) still waits for its parallel input check.
      const pending = this.takeInputCheck();
      if (pending) await pending;
      if (result.kind === "answer") return result.data === undefined ? { text: result.text } : { text: result.text, data: result.data };
      // Handed off: the receiver answers the turn, with its own iteration cap.
      this.state.iterationsThisTurn = 0;
      await this.toolCalls.prepare();
    }
  }

  /** The span routing records hang under: the router's last iteration (it ended when the decision was accepted). */
  private lastIterationSpan: string | null = null;

  parentSpan(): string {
    return this.lastIterationSpan ?? this.state.runSpanId;
  }

  /** Runs a guardrail step of the iteration; a run it stops ends the iteration's span with it. */
  private async guarded<T>(iterationSpan: TraceSpan, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      if (error instanceof RunFailure) throw this.endWith(iterationSpan, error);
      throw error;
    }
  }

  private endWith(iterationSpan: TraceSpan, failure: RunFailure): RunFailure {
    this.state.endSpan(iterationSpan, "error", { attributes: { outcome: failure.reason } });
    return failure;
  }

  /** An output guardrail refused the answer: the model is asked to rewrite it (the refused answer is already in the conversation). */
  private askRewrite(iterationSpan: TraceSpan, prompt: string): void {
    this.state.pushMessage({ role: "user", content: prompt });
    this.state.endSpan(iterationSpan, "error", { attributes: { outcome: "guardrail_rewrite" } });
  }

  /** The loop: model call, then the response's tool calls in parallel, until an answer (accepted or repaired), a handoff or a limit. */
  async iterate(): Promise<TurnResult> {
    const { state } = this;
    for (;;) {
      const agent = this.agent;
      if (state.iterationsThisTurn >= agent.maxIterations) {
        throw new RunFailure("step_limit_exceeded", `${agent.name} reached its limit of ${agent.maxIterations} iterations without a final answer`);
      }
      const maxSteps = this.limits.maxSteps;
      if (maxSteps !== undefined && state.iteration - state.turnStartIteration >= maxSteps) {
        throw new RunFailure("step_limit_exceeded", `the task took ${maxSteps} steps across its agents (limits.maxSteps) without a final answer`);
      }
      if (state.iterationsThisTurn > 0 && this.shouldContinueAsNew()) {
        state.emit({ type: "continued_as_new", historyLength: workflowInfo().historyLength, generation: state.generation + 1 });
        await condition(allHandlersFinished);
        await this.ledger.flushed();
        await continueAsNew<(input: AgentRunInput) => Promise<unknown>>({ ...this.input, carried: state.snapshot() });
      }
      state.iteration++;
      state.iterationsThisTurn++;
      this.history.countIteration();
      const iterationSpan = state.startSpan("iteration", `iteration ${state.iteration}`, state.runSpanId || null, { iteration: state.iteration });
      this.lastIterationSpan = iterationSpan.id;
      state.emit({ type: "iteration_started", iteration: state.iteration });
      state.baseStatus = "thinking";
      this.onStatusChange();

      const offer = offeredChildren(state, agent);
      const answerSchema = offer ? { schema: routingDecisionSchema(offer), strict: true } : answerSchemaOf(agent, this.input.graph);
      const tools = offer ? this.toolCalls.tools.map((t) => (t.name === RETURN_TOOL ? { ...t, parameters: routingDecisionSchema(offer) } : t)) : this.toolCalls.tools;
      const beside = this.takeInputCheck();
      const modelCall = () =>
        infer(
          {
            state,
            agent,
            limits: this.limits,
            ledger: this.ledger,
            tools,
            deadline: this.deadline,
            eagerTools: () => this.toolCalls.eagerTools(),
            answerSchema,
            rootRunId: this.input.rootRunId,
          },
          iterationSpan,
        );
      let response = beside ? await this.guarded(iterationSpan, () => besideCheck(beside, modelCall)) : await modelCall();
      this.toolCalls.useEagerOutcomes(response.toolOutcomes, response.toolCalls);
      if (answerSchema && response.answer) {
        // A valid typed answer meets the output guardrails before it is accepted (a router's decision and a plan do not).
        const answer = response.answer;
        if (state.patches.guardrails && answer.ok && !offer && !isPlanner(agent, this.input.graph)) {
          const screened = await this.guarded(iterationSpan, () => screenAnswer(state, this.input, agent, JSON.stringify(answer.data, null, 2), iterationSpan.id));
          if (screened?.outcome === "rewrite") {
            const prompt = guardrailRewritePrompt(screened.guardrail.name, screened.reason);
            if (response.toolCalls.length) closeCalls(state, response, (call) => (call.id === answer.callId ? `Not accepted: ${prompt}` : "Not run: the answer was refused in the same response."));
            else state.pushMessage({ role: "assistant", content: response.content });
            this.askRewrite(iterationSpan, prompt);
            continue;
          }
          if (screened?.masks.length) {
            const masked = maskTypedResponse(response, screened.masks);
            if (!masked) throw this.endWith(iterationSpan, guardrailFailure(screened.masks[0] as Guardrail, "the masked answer no longer matches JSON"));
            response = masked;
          }
        }
        let judged: TurnResult | null;
        try {
          judged = judgeAnswer(state, response, response.answer ?? answer, answerSchema.schema, planCheck(agent, this.input.graph));
        } catch (error) {
          // Out of repairs (validation_error, plan_invalid): the iteration ends with the run, not left running in the trace.
          state.endSpan(iterationSpan, "error", { attributes: { outcome: error instanceof RunFailure ? error.reason : "error" } });
          throw error;
        }
        state.endSpan(iterationSpan, judged ? "ok" : "error", judged ? {} : { attributes: { outcome: "output_invalid" } });
        if (judged) return judged;
        continue;
      }
      if (response.toolCalls.length === 0) {
        let content = response.content ?? "";
        if (state.patches.guardrails) {
          const raw = content;
          const screened = await this.guarded(iterationSpan, () => screenAnswer(state, this.input, agent, raw, iterationSpan.id));
          if (screened?.outcome === "rewrite") {
            state.pushMessage({ role: "assistant", content });
            this.askRewrite(iterationSpan, guardrailRewritePrompt(screened.guardrail.name, screened.reason));
            continue;
          }
          if (screened) content = screened.text;
        }
        state.pushMessage({ role: "assistant", content });
        state.endSpan(iterationSpan, "ok");
        return { kind: "answer", text: content };
      }
      const gaveUp = answerSchema ? failReason(response.toolCalls) : null;
      if (gaveUp !== null) {
        closeCalls(state, response, (call) => (call.name === "fail" ? "Recorded: the run ends as failed." : "Not run: the agent gave up in the same response."));
        state.endSpan(iterationSpan, "error", { attributes: { outcome: "agent_failed" } });
        throw new RunFailure("agent_failed", `${agent.name} gave up: ${gaveUp}`);
      }
      const handoff = handoffRequest(agent, response.toolCalls);
      if (handoff && !("problem" in handoff)) {
        closeCalls(state, response, (call) => (call.name === "handoff" ? `Handed off to ${handoff.to}.` : "Not run: the conversation was handed off in the same response."));
        const target = await handOff({ state, input: this.input, ledger: this.ledger, graph: this.input.graph }, agent, handoff, { task: state.turnTask || this.input.message }, iterationSpan);
        state.endSpan(iterationSpan, "ok");
        this.agentConfig = target;
        return { kind: "handoff", to: handoff.to, reason: handoff.reason };
      }
      let calls: ToolCall[] = response.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
      // Tool_call guardrails see each call before the response is recorded: masked arguments are all that is stored.
      let inbox: ReadonlyMap<string, GuardrailHold> | undefined;
      if (state.patches.guardrails) {
        const proposed = calls;
        const screened = await this.guarded(iterationSpan, () => screenCalls(state, this.input, agent, proposed, iterationSpan.id));
        calls = screened.calls;
        inbox = screened.inbox;
      }
      state.pushMessage({ role: "assistant", content: response.content, tool_calls: calls });
      this.openCalls = calls.map((c) => ({ id: c.id, name: c.function.name }));
      const outcomes = await this.toolCalls.runAll(calls, iterationSpan, inbox);
      this.openCalls = [];
      calls.forEach((call, i) => state.pushMessage({ role: "tool", tool_call_id: call.id, name: call.function.name, content: outcomes[i]?.content ?? "" }));
      const failed = outcomes.filter((o) => !o.ok && o.errorKind !== "rejected");
      state.endSpan(iterationSpan, failed.length ? "error" : "ok");
      if (failed.length && this.limits.toolErrorPolicy === "fail") {
        throw new RunFailure("tool_error", `tool call failed: ${failed[0]?.content ?? "unknown error"}`);
      }
    }
  }
}
