// One agent's turn inside the workflow: iterations of inference and parallel
// tool calls, with approvals, sub-agent conversations, budgets and timeouts.
import {
  ActivityCancellationType,
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  allHandlersFinished,
  condition,
  continueAsNew,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  sleep,
  TimeoutFailure,
  workflowInfo,
  type LocalActivityOptions,
} from "@temporalio/workflow";
import type { AgentActivities, EagerTools, ToolActivityOutput } from "../activities/agent";
import type { FunctionTool } from "../models/types";
import type { AgentConfig } from "../../lib/agents/schemas";
import type { ToolCall, TraceSpan } from "../../lib/contract/types";
import type { AgentRunInput, LedgerBatch, SubAgentReplySignal } from "../../lib/contract/workflow";
import { ACTIVITY_ERRORS } from "../../lib/contract/definitions";
import { Approvals, argumentProblems, gateFor, mayRun, parseCallArguments } from "./approvals";
import { SubAgentConversations, type CallOutcome } from "./sub-agents";
import type { RunLedger } from "./run-ledger";
import { RunFailure } from "./run-failure";
import { BUILTIN_TOOLS } from "../../lib/tools/catalog";
import type { RunState } from "./run-state";


// Demo-model calls and side-effect-free built-in tools run as local activities:
// they execute inside the worker that holds the workflow task, so an
// iteration costs one round trip to Temporal instead of several, and their
// inputs (the growing conversation) are not copied into history each time.
// Side-effecting and MCP tools run as regular activities with heartbeats, so a
// dead worker is noticed within seconds and the call resumes elsewhere.
const INFERENCE_OPTIONS: LocalActivityOptions = {
  startToCloseTimeout: "5 minutes",
  localRetryThreshold: "1 minute",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "30 seconds", maximumAttempts: 5 },
  // A cancelled call still finishes writing the ledger batch it carries; waiting for it keeps the
  // run's writes in order (a later write never lands before it).
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
};

/**
 * The model call, bounded by what is left of the run timeout.
 *
 * The built-in demo model answers in milliseconds: a local activity. A real
 * provider can take a minute, and a local activity holds the workflow task
 * while it runs, so a cancel, a timer or a query would reach the run only when
 * the task is heartbeated (8 s into it, see AGENT_WORKFLOW_TASK_TIMEOUT).
 * Real providers therefore run as regular activities with heartbeats: one more
 * round trip per call (tens of ms against seconds of generation) buys an
 * immediate cancel and a dead worker noticed within the heartbeat timeout.
 * Either way the schedule-to-close deadline ends the call at the run timeout.
 */
function runInferenceWithin(model: string, deadline: number): { local: boolean; run: AgentActivities["runInference"] } {
  // Measured when the call is scheduled (a local one may wait for its turn first).
  const scheduleToCloseTimeout = () => Math.max(1, deadline - Date.now());
  if (model.startsWith("demo/")) return { local: true, run: (input) => proxyLocalActivities<AgentActivities>({ ...INFERENCE_OPTIONS, scheduleToCloseTimeout: scheduleToCloseTimeout() }).runInference(input) };
  return {
    local: false,
    run: (input) =>
      proxyActivities<AgentActivities>({
        startToCloseTimeout: INFERENCE_OPTIONS.startToCloseTimeout,
        heartbeatTimeout: "10 seconds",
        retry: INFERENCE_OPTIONS.retry,
        scheduleToCloseTimeout: scheduleToCloseTimeout(),
      }).runInference(input),
  };
}

// Tools fail by returning an error outcome (the model sees it); a thrown error
// is an infrastructure problem (database busy, network), retried for about a
// minute before the model hears that the tool is unavailable.
const TOOL_RETRY = { initialInterval: "500 milliseconds", backoffCoefficient: 2, maximumInterval: "8 seconds", maximumAttempts: 6 };

const { executeTool: executeLocalTool } = proxyLocalActivities<AgentActivities>({
  startToCloseTimeout: "2 minutes",
  retry: TOOL_RETRY,
});

const { executeTool } = proxyActivities<AgentActivities>({
  startToCloseTimeout: "2 minutes",
  // Short, so a worker that died mid-call is noticed and the call retried quickly.
  heartbeatTimeout: "5 seconds",
  retry: TOOL_RETRY,
});

/** Attempts the activity makes before reporting an unavailable tool (see worker/activities/agent.ts). */
const MCP_ATTEMPTS_SEEN = 3;

/** History events one iteration adds (activity and ledger markers plus workflow-task events). */
const EVENTS_PER_ITERATION = 8;

const LOCAL_TOOLS = new Set<string>(BUILTIN_TOOLS.filter((t) => !t.sideEffect).map((t) => t.id));

const { describeTools } = proxyActivities<AgentActivities>({
  startToCloseTimeout: "1 minute",
  heartbeatTimeout: "20 seconds",
  retry: { initialInterval: "1 second", maximumAttempts: 2 },
});

/** A local activity that ran out of its schedule-to-close time fails with the TimeoutFailure itself (a regular one wraps it). */
function isScheduleToCloseTimeout(error: unknown): boolean {
  const timeout = error instanceof ActivityFailure ? error.cause : error;
  return timeout instanceof TimeoutFailure && timeout.timeoutType === "SCHEDULE_TO_CLOSE";
}

function failureMessage(error: unknown): string {
  if (error instanceof ActivityFailure && error.cause instanceof Error) return error.cause.message;
  return error instanceof Error ? error.message : String(error);
}



export class AgentLoop {
  tools: FunctionTool[] = [];
  onStatusChange: () => void = () => undefined;
  readonly approvals: Approvals;
  private readonly conversations: SubAgentConversations;

  constructor(
    private readonly state: RunState,
    private readonly input: AgentRunInput,
    private readonly agentConfig: AgentConfig | undefined,
    private readonly ledger: RunLedger,
  ) {
    this.conversations = new SubAgentConversations(state, input, () => this.checkBudget());
    this.approvals = new Approvals(state, input, (tool) => this.schemaOf(tool), () => this.onStatusChange());
  }

  receiveReply(reply: SubAgentReplySignal): void {
    this.conversations.receiveReply(reply);
  }

  private get agent(): AgentConfig {
    if (!this.agentConfig) throw new RunFailure("invalid_config", `agent "${this.input.agentName}" is not in the graph`);
    return this.agentConfig;
  }

  private get limits() {
    return this.input.graph.limits;
  }

  async prepareTools(): Promise<void> {
    const subAgents = this.agent.subAgents.map((name) => ({ name, description: this.input.graph.agents.find((a) => a.name === name)?.description ?? "" }));
    const { tools, errors } = await describeTools({ agent: this.agent, subAgents });
    this.tools = tools;
    for (const message of errors) this.state.emit({ type: "error", kind: "mcp", message });
  }

  /** Outcomes of the calls the last model call ran itself (see eagerTools), by call id. */
  private eagerOutcomes = new Map<string, ToolActivityOutput>();
  private eager: EagerTools | null = null;

  /**
   * The tools a model call may run itself: side-effect-free built-ins the
   * agent holds that no approval gates. Only runs that carry their gate decide
   * this up front (an older run's gate is decided call by call, in its history).
   */
  private eagerTools(): EagerTools | undefined {
    if (!this.input.gate) return undefined;
    this.eager ??= {
      names: this.agent.tools.filter((name) => LOCAL_TOOLS.has(name) && name !== "message_agent" && !gateFor(this.input, this.agent, name)),
      agent: this.agent,
      rootRunId: this.input.rootRunId,
      runContext: this.input.context,
    };
    return this.eager;
  }

  schemaOf(toolName: string): Record<string, unknown> | undefined {
    return this.tools.find((t) => t.name === toolName)?.parameters;
  }

  /** Iterations run by this execution (not carried): local activities add history only when their workflow task completes. */
  private iterationsThisExecution = 0;

  shouldContinueAsNew(): boolean {
    const info = workflowInfo();
    // historyLength is as of the current workflow task; estimate the events
    // this execution's iterations add (two activity markers plus task events each).
    const estimated = Math.max(info.historyLength, this.iterationsThisExecution * EVENTS_PER_ITERATION);
    return info.continueAsNewSuggested || estimated >= this.limits.continueAsNewAfterEvents;
  }

  /** When the current turn must have its final answer (workflow time, ms). */
  private deadline = Infinity;

  /** Runs iterations until the model answers; bounded by the run timeout. */
  async respond(): Promise<string> {
    const startedAt = Date.parse(this.state.turnStartedAt ?? new Date(Date.now()).toISOString());
    this.deadline = startedAt + this.limits.runTimeoutSeconds * 1000;
    const remaining = Math.max(1, this.deadline - Date.now());
    let timedOut = false;
    const work = new CancellationScope();
    const timer = new CancellationScope();
    void timer
      .run(() => sleep(remaining))
      .then(
        () => {
          timedOut = true;
          work.cancel();
        },
        () => undefined,
      );
    try {
      return await work.run(() => this.iterate());
    } catch (error) {
      if (timedOut && isCancellation(error)) throw this.timeoutFailure();
      throw error;
    } finally {
      timer.cancel();
    }
  }

  private timeoutFailure(): RunFailure {
    return new RunFailure("timeout", `no final answer within the run timeout of ${this.limits.runTimeoutSeconds} s`);
  }

  private async iterate(): Promise<string> {
    const { state, agent } = this;
    for (;;) {
      if (state.iterationsThisTurn >= agent.maxIterations) {
        throw new RunFailure("step_limit_exceeded", `${agent.name} reached its limit of ${agent.maxIterations} iterations without a final answer`);
      }
      if (state.iterationsThisTurn > 0 && this.shouldContinueAsNew()) {
        state.emit({ type: "continued_as_new", historyLength: workflowInfo().historyLength, generation: state.generation + 1 });
        await condition(allHandlersFinished);
        await this.ledger.flushed();
        await continueAsNew<(input: AgentRunInput) => Promise<unknown>>({ ...this.input, carried: state.snapshot() });
      }
      state.iteration++;
      state.iterationsThisTurn++;
      this.iterationsThisExecution++;
      const iterationSpan = state.startSpan("iteration", `iteration ${state.iteration}`, state.runSpanId || null, { iteration: state.iteration });
      state.emit({ type: "iteration_started", iteration: state.iteration });
      state.baseStatus = "thinking";
      this.onStatusChange();

      const response = await this.infer(iterationSpan);
      if (response.toolCalls.length === 0) {
        const content = response.content ?? "";
        state.pushMessage({ role: "assistant", content });
        state.endSpan(iterationSpan, "ok");
        return content;
      }
      const calls: ToolCall[] = response.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
      state.pushMessage({ role: "assistant", content: response.content, tool_calls: calls });
      const outcomes = await Promise.all(calls.map((call) => this.runCall(call, iterationSpan)));
      calls.forEach((call, i) => state.pushMessage({ role: "tool", tool_call_id: call.id, name: call.function.name, content: outcomes[i]?.content ?? "" }));
      const failed = outcomes.filter((o) => !o.ok && o.errorKind !== "rejected");
      state.endSpan(iterationSpan, failed.length ? "error" : "ok");
      if (failed.length && this.limits.toolErrorPolicy === "fail") {
        throw new RunFailure("tool_error", `tool call failed: ${failed[0]?.content ?? "unknown error"}`);
      }
    }
  }

  private async infer(parent: TraceSpan) {
    const { state, agent } = this;
    const span = state.startSpan("inference", agent.model, parent.id);
    state.emit({ type: "inference_started", iteration: state.iteration, model: agent.model });
    let output;
    try {
      const inference = runInferenceWithin(agent.model, this.deadline);
      const call = (ledger: LedgerBatch | null) =>
        inference.run({
          runId: workflowInfo().workflowId,
          iteration: state.iteration,
          agentName: agent.name,
          model: agent.model,
          messageCount: state.messageCount,
          ledger,
          tools: this.tools,
          temperature: agent.temperature,
          maxOutputTokens: agent.maxOutputTokens,
          ...(inference.local && this.ledger.carrying ? { eagerTools: this.eagerTools() } : {}),
        });
      // A local model call carries the pending ledger batch and writes it while the model works. A regular
      // activity (a real provider) reads the whole conversation from the ledger: it is written first, and
      // not carried, so conversations stay out of the workflow's history.
      if (inference.local) output = await this.ledger.exclusive(call, { carry: true });
      else {
        await this.ledger.written();
        output = await call(null);
      }
    } catch (error) {
      state.endSpan(span, "error");
      if (isCancellation(error)) throw error;
      if (isScheduleToCloseTimeout(error)) throw this.timeoutFailure();
      throw new RunFailure("model_error", failureMessage(error));
    }
    this.eagerOutcomes = new Map(Object.entries(output.toolOutcomes ?? {}));
    state.addUsage(output.usage);
    state.emit({
      type: "inference_completed",
      iteration: state.iteration,
      model: agent.model,
      usage: output.usage,
      latencyMs: output.latencyMs,
      toolCalls: output.toolCalls.length,
      attempts: output.attempt,
      ...(output.startedAt ? { startedAt: output.startedAt } : {}),
    });
    state.endSpan(span, "ok", { tokens: output.usage, attempts: output.attempt, ...(output.retryReason ? { attributes: { retryReason: output.retryReason } } : {}) });
    this.checkBudget();
    return output;
  }

  checkBudget(): void {
    const used = this.state.totalTokens();
    const limit = this.limits.tokenBudget;
    if (!this.state.budgetWarned && used >= limit * 0.9) {
      this.state.budgetWarned = true;
      this.state.emit({ type: "budget_warning", budget: "tokens", used, limit });
    }
    if (used >= limit) throw new RunFailure("budget_exceeded", `the run used ${used} tokens of its ${limit}-token budget`);
  }

  /** A problem that makes a gated call invalid before any human sees it, or null. */
  private callProblem(name: string, rawArguments: string): { problem: string; kind: string; args: Record<string, unknown> } | { problem: null; args: Record<string, unknown> } {
    const parsed = parseCallArguments(rawArguments);
    if ("problem" in parsed) return { problem: `The arguments for ${name} are invalid: ${parsed.problem}. Send a JSON object.`, kind: "invalid_arguments", args: {} };
    if (!this.tools.some((t) => t.name === name)) {
      return { problem: `There is no tool named "${name}". Available tools: ${this.tools.map((t) => t.name).join(", ") || "none"}.`, kind: "unknown_tool", args: parsed.args };
    }
    const problems = argumentProblems(parsed.args, this.schemaOf(name));
    if (problems.length) return { problem: `Invalid arguments for ${name}: ${problems.join("; ")}`, kind: "invalid_arguments", args: parsed.args };
    return { problem: null, args: parsed.args };
  }

  private async runCall(call: ToolCall, parent: TraceSpan): Promise<CallOutcome> {
    const { state } = this;
    const name = call.function.name;
    const span = state.startSpan("tool", name, parent.id, { callId: call.id });
    const started = Date.now();
    state.emit({ type: "tool_call_started", iteration: state.iteration, callId: call.id, tool: name, arguments: call.function.arguments });
    state.toolsInFlight++;
    this.onStatusChange();
    let outcome: CallOutcome;
    try {
      outcome = await this.gatedCall(call, span);
    } finally {
      state.toolsInFlight--;
      this.onStatusChange();
    }
    const result = outcome.ok ? "ok" : outcome.errorKind === "rejected" ? "rejected" : "error";
    state.emit({ type: "tool_call_completed", iteration: state.iteration, callId: call.id, tool: name, outcome: result, durationMs: Date.now() - started, attempts: outcome.attempts, result: outcome.content });
    if (!outcome.ok && outcome.errorKind !== "rejected") state.emit({ type: "error", kind: outcome.errorKind ?? "tool", message: outcome.content, callId: call.id });
    state.endSpan(span, outcome.ok ? "ok" : "error", { attempts: outcome.attempts, attributes: { outcome: result, ...(outcome.retryReason ? { retryReason: outcome.retryReason } : {}) } });
    return outcome;
  }

  /**
   * Runs a call, through an approval when the gate demands one (the workspace
   * policy's deny-by-default and floors, plus graph rules — own and inherited);
   * an invalid call is a tool error, never an approval request.
   */
  private async gatedCall(call: ToolCall, span: TraceSpan): Promise<CallOutcome> {
    const name = call.function.name;
    let rawArguments = call.function.arguments;
    const rule = gateFor(this.input, this.agent, name);
    if (rule) {
      const checked = this.callProblem(name, rawArguments);
      if (checked.problem !== null) return { ok: false, errorKind: checked.kind, attempts: 0, content: checked.problem };
      const approval = await this.approvals.request(call, checked.args, rule, this.agent.name, span);
      if (!mayRun(approval)) {
        const reason = approval.decision?.reason ?? (approval.status === "expired" ? "nobody decided before the approval expired" : "no reason given");
        return { ok: false, errorKind: "rejected", attempts: 0, content: `The call to ${name} was not approved (${approval.status}): ${reason}` };
      }
      if (approval.decision?.editedArguments) rawArguments = JSON.stringify(approval.decision.editedArguments);
    }
    if (name === "message_agent" && this.agent.subAgents.length > 0) return this.conversations.message(this.agent, rawArguments, span);
    return this.callTool(call, rawArguments);
  }

  private async callTool(call: ToolCall, rawArguments: string): Promise<CallOutcome> {
    try {
      const input = {
        agent: this.agent,
        toolName: call.function.name,
        rawArguments,
        runId: workflowInfo().workflowId,
        rootRunId: this.input.rootRunId,
        iteration: this.state.iteration,
        callId: call.id,
        runContext: this.input.context,
      };
      const local = LOCAL_TOOLS.has(call.function.name) && this.agent.tools.includes(call.function.name);
      const ran = this.eagerOutcomes.get(call.id);
      this.eagerOutcomes.delete(call.id);
      const output: ToolActivityOutput = ran && rawArguments === call.function.arguments ? ran : local ? await this.ledger.exclusive(() => executeLocalTool(input), { carry: false }) : await executeTool(input);
      return { ok: output.ok, content: output.content, errorKind: output.ok ? undefined : output.errorKind, attempts: output.attempt, ...(output.retryReason ? { retryReason: output.retryReason } : {}) };
    } catch (error) {
      if (isCancellation(error)) throw error;
      if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure && error.cause.type === ACTIVITY_ERRORS.toolUnavailable) {
        return { ok: false, errorKind: "unavailable", attempts: MCP_ATTEMPTS_SEEN, content: `${call.function.name} failed: ${error.cause.message}` };
      }
      // The activity logged the details with the run id; the model (and the trace) get a plain sentence.
      return {
        ok: false,
        errorKind: "unavailable",
        attempts: TOOL_RETRY.maximumAttempts,
        content: `${call.function.name} is temporarily unavailable (it failed ${TOOL_RETRY.maximumAttempts} times on an internal problem); try again later or continue without it.`,
      };
    }
  }
}
