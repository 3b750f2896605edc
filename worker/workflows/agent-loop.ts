// One agent's turn inside the workflow: iterations of a model call and the
// parallel tool calls of its response, until a final answer, within the run
// timeout and the iteration cap. The jobs themselves live beside it: the
// model call (inference.ts), tool calls (tool-calls.ts), approvals
// (approvals.ts), sub-agent conversations (sub-agents.ts) and budgets
// (budget.ts); this class coordinates them.
import { CancellationScope, allHandlersFinished, condition, continueAsNew, isCancellation, patched, sleep, workflowInfo } from "@temporalio/workflow";
import type { AgentConfig, RunLimits } from "../../lib/agents/schemas";
import { effectiveModel, INHERIT_MODEL } from "../../lib/agents/model-inheritance";
import { answerSchemaOf, isPlanner, planCards, RETURN_TOOL, reroutePrompt, routingDecisionSchema, type RoutingDecision } from "../../lib/contract/system-tools";
import { planProblems, type Plan } from "../../lib/contract/plan";
import { approvedPlan, PLAN_REJECTIONS_ALLOWED, replanPrompt } from "../../lib/contract/plan-approval";
import { executePlanLegacy } from "./plan-executor-legacy";
import { schedulePlan } from "./plan-scheduler";
import { DEFAULT_PLAN_SETTINGS } from "./plan-settings";
import type { ToolCall } from "../../lib/contract/types";
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
import { DEFAULT_ROUTER, recordDecision, runRoutedChild } from "./routing";

/** How long before the turn's deadline a plan approval expires, so its expiry (not the run timeout) ends the wait. */
const PLAN_EXPIRY_MARGIN_MS = 1000;

/** Plans run on the scheduler (plan-scheduler.ts); runs recorded before it replay on the legacy executor. */
const PLAN_SCHEDULER_PATCH = "plan-scheduler";
/** After a routed child fails, the router is offered only the children left (and no fallback or default that failed). */
const ROUTING_OFFERS_REMAINING_PATCH = "routing-offers-remaining";

/** A turn's answer: its text and, when the agent has an output schema, the typed data. */
export interface TurnAnswer {
  text: string;
  data?: unknown;
}

export class AgentLoop {
  onStatusChange: () => void = () => undefined;
  readonly approvals: Approvals;
  private readonly conversations: SubAgentConversations;
  private readonly toolCalls: ToolCalls;
  private readonly history: HistoryBudget;

  constructor(
    private readonly state: RunState,
    private readonly input: AgentRunInput,
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
  private get agent(): AgentConfig {
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
  private deadline = Infinity;
  /** The run timeout struck the current turn (its work scope is being cancelled). */
  private timedOut = false;

  /** Why work in flight stops when `error` ends the turn: what a plan records on the nodes it cancels. */
  private stopReason(error: unknown): string {
    if (error instanceof RunFailure) return `${error.reason}: ${error.message}`;
    if (this.timedOut) return `timeout: no final answer within the run timeout of ${this.limits.runTimeoutSeconds} s`;
    if (isCancellation(error)) return "cancelled: the run was cancelled";
    return error instanceof Error ? error.message : String(error);
  }

  /** Runs iterations until the model answers; bounded by the run timeout. */
  async respond(): Promise<TurnAnswer> {
    const startedAt = Date.parse(this.state.turnStartedAt ?? new Date(Date.now()).toISOString());
    this.deadline = startedAt + this.limits.runTimeoutSeconds * 1000;
    const remaining = Math.max(1, this.deadline - Date.now());
    this.timedOut = false;
    const work = new CancellationScope();
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
      if (this.timedOut && isCancellation(error)) throw runTimeoutFailure(this.limits);
      throw error;
    } finally {
      timer.cancel();
    }
  }

  /** The turn: the agent's iterations, a router's routing, and the agents handoffs pass it to. */
  private async answerTurn(): Promise<TurnAnswer> {
    for (;;) {
      const result = isPlanner(this.agent, this.input.graph) ? await this.planAndExecute() : this.agent.kind === "router" ? await this.route() : await this.iterate();
      if (result.kind === "answer") return result.data === undefined ? { text: result.text } : { text: result.text, data: result.data };
      // Handed off: the receiver answers the turn, with its own iteration cap.
      this.state.iterationsThisTurn = 0;
      await this.toolCalls.prepare();
    }
  }

  /** A router's turn: decide, run the chosen child, and route again when it fails, up to maxAttempts. */
  private async route(): Promise<TurnResult> {
    const { state } = this;
    const router = this.agent;
    const maxAttempts = router.router?.maxAttempts ?? DEFAULT_ROUTER.maxAttempts;
    // The turn's failed children live in the run state: they survive continue-as-new.
    const failed = state.routingFailures;
    for (;;) {
      const attempt = failed.length + 1;
      const decided = await this.iterate();
      if (decided.kind !== "answer") return decided;
      const parent = this.lastIterationSpan ?? state.runSpanId;
      const excluded = this.routerOffer(router) ? failed.map((f) => f.agentName) : [];
      const record = recordDecision(state, router, decided.data as RoutingDecision, attempt, parent, excluded);
      const child = await runRoutedChild(state, this.input, router, record.chosen, state.turnTask || this.input.message, attempt, parent);
      await this.checkBudget();
      if (child.ok) return { kind: "answer", text: child.text, ...(child.data !== undefined ? { data: child.data } : {}) };
      failed.push({ agentName: record.chosen, reason: child.reason });
      state.emit({ type: "routed_agent_failed", agentName: record.chosen, runId: child.runId, attempt, reason: child.reason });
      const remaining = router.subAgents.filter((name) => !failed.some((f) => f.agentName === name));
      if (attempt >= maxAttempts || remaining.length === 0) {
        throw new RunFailure(
          "routing_exhausted",
          `${router.name} tried ${failed.map((f) => f.agentName).join(", ")} and none finished the task (${attempt} of ${maxAttempts} attempts)`,
          { attempts: failed },
        );
      }
      state.pushMessage({ role: "user", content: reroutePrompt(record.chosen, child.reason, remaining) });
    }
  }

  /**
   * The children a router may still choose this turn: all of them until one
   * fails, then those left (the decision's schema, the return tool and the
   * alternatives say so). Null: offer the router's own list.
   */
  private routerOffer(agent: AgentConfig): string[] | null {
    const failed = this.state.routingFailures;
    if (agent.kind !== "router" || failed.length === 0) return null;
    // Runs that re-routed before this existed were offered every child again: their histories replay so.
    if (!patched(ROUTING_OFFERS_REMAINING_PATCH)) return null;
    return agent.subAgents.filter((name) => !failed.some((f) => f.agentName === name));
  }

  /**
   * A planner's turn: a valid plan (repaired like any typed answer, else
   * plan_invalid), approved by a person when the graph asks for it, then its execution.
   */
  private async planAndExecute(): Promise<TurnResult> {
    const decided = await this.iterate();
    if (decided.kind !== "answer") return decided;
    const proposed = decided.data as Plan;
    this.state.emit({ type: "plan_proposed", plan: proposed, attempt: this.state.planAttempts });
    // Only graphs that ask for approval wait: the histories of every other plan run replay as they ran.
    const plan = this.input.graph.plan?.approval ? await this.approvePlan(proposed) : proposed;
    if (!("nodes" in plan)) return plan;
    const task = this.state.turnTask || this.input.message;
    const parent = this.lastIterationSpan ?? this.state.runSpanId;
    if (!patched(PLAN_SCHEDULER_PATCH)) {
      return executePlanLegacy({ state: this.state, input: this.input, planner: this.agent, checkBudget: () => this.checkBudget() }, plan, task, parent);
    }
    return schedulePlan({ state: this.state, input: this.input, planner: this.agent, checkBudget: () => this.checkBudget(), stopReason: (error) => this.stopReason(error) }, plan, task, parent);
  }

  /**
   * The plan an approver lets run: as proposed, or as they edited it (proposed
   * again, so the run's plan is the last one proposed). A rejection's reason
   * goes to the planner, which plans once more for approval; a second
   * rejection, or an expiry, fails the run plan_invalid.
   */
  private async approvePlan(proposed: Plan): Promise<Plan | TurnResult> {
    const { state } = this;
    let plan = proposed;
    for (;;) {
      const approval = await this.approvals.requestPlan(plan, this.deadline - PLAN_EXPIRY_MARGIN_MS, this.lastIterationSpan ?? state.runSpanId);
      if (approval.status === "approved") {
        const edited = approval.decision?.editedArguments ? approvedPlan(approval) : null;
        if (!edited) return plan;
        state.emit({ type: "plan_proposed", plan: edited, attempt: state.planAttempts });
        return edited;
      }
      if (approval.status !== "rejected") throw new RunFailure("plan_invalid", "the plan's approval expired before an approver decided");
      const by = approval.decision?.decidedBy.email ?? "an approver";
      const reason = approval.decision?.reason ?? "no reason given";
      // Counted in the run state: a rejection before a continue-as-new still counts after it.
      if (++state.planRejections > PLAN_REJECTIONS_ALLOWED) throw new RunFailure("plan_invalid", `${by} rejected the plan again: ${reason}`);
      state.pushMessage({ role: "user", content: replanPrompt(reason, by) });
      const replanned = await this.iterate();
      if (replanned.kind !== "answer") return replanned;
      plan = replanned.data as Plan;
      state.emit({ type: "plan_proposed", plan, attempt: state.planAttempts });
    }
  }

  /** A planner's plan is checked beyond its schema: ids, dependencies, agents, cycles, size. */
  private planCheck(agent: AgentConfig): ((data: unknown) => string[]) | undefined {
    if (!isPlanner(agent, this.input.graph)) return undefined;
    const maxNodes = this.input.graph.plan?.maxNodes ?? DEFAULT_PLAN_SETTINGS.maxNodes;
    return (data) => planProblems(data as Plan, planCards(this.input.graph), maxNodes);
  }

  /** The span routing records hang under: the router's last iteration (it ended when the decision was accepted). */
  private lastIterationSpan: string | null = null;

  private async iterate(): Promise<TurnResult> {
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

      const offer = this.routerOffer(agent);
      const answerSchema = offer ? { schema: routingDecisionSchema(offer), strict: true } : answerSchemaOf(agent, this.input.graph);
      const tools = offer ? this.toolCalls.tools.map((t) => (t.name === RETURN_TOOL ? { ...t, parameters: routingDecisionSchema(offer) } : t)) : this.toolCalls.tools;
      const response = await infer(
        {
          state,
          agent,
          limits: this.limits,
          ledger: this.ledger,
          tools,
          deadline: this.deadline,
          eagerTools: () => this.toolCalls.eagerTools(),
          answerSchema,
        },
        iterationSpan,
      );
      this.toolCalls.useEagerOutcomes(response.toolOutcomes);
      if (answerSchema && response.answer) {
        const judged = judgeAnswer(state, response, response.answer, answerSchema.schema, this.planCheck(agent));
        state.endSpan(iterationSpan, judged ? "ok" : "error", judged ? {} : { attributes: { outcome: "output_invalid" } });
        if (judged) return judged;
        continue;
      }
      if (response.toolCalls.length === 0) {
        const content = response.content ?? "";
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
      const calls: ToolCall[] = response.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
      state.pushMessage({ role: "assistant", content: response.content, tool_calls: calls });
      const outcomes = await this.toolCalls.runAll(calls, iterationSpan);
      calls.forEach((call, i) => state.pushMessage({ role: "tool", tool_call_id: call.id, name: call.function.name, content: outcomes[i]?.content ?? "" }));
      const failed = outcomes.filter((o) => !o.ok && o.errorKind !== "rejected");
      state.endSpan(iterationSpan, failed.length ? "error" : "ok");
      if (failed.length && this.limits.toolErrorPolicy === "fail") {
        throw new RunFailure("tool_error", `tool call failed: ${failed[0]?.content ?? "unknown error"}`);
      }
    }
  }
}
