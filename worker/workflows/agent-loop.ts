// One agent's turn inside the workflow: iterations of inference and parallel
// tool calls, with approvals, sub-agent conversations, budgets and timeouts.
import {
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
  uuid4,
  workflowInfo,
} from "@temporalio/workflow";
import type { AgentActivities, ToolActivityOutput } from "../activities/agent";
import type { FunctionTool } from "../models/types";
import type { AgentConfig, ApprovalRule } from "../../lib/agents/schemas";
import type { ApprovalRequest, ToolCall, TraceSpan } from "../../lib/engine/types";
import type { AgentRunInput, DecideApprovalInput, SubAgentReplySignal } from "../../lib/engine/workflow-types";
import { matchingRule } from "./approvals";
import { parseArguments, SubAgentConversations, type CallOutcome } from "./sub-agents";
import { RunFailure } from "./run-failure";
import { BUILTIN_TOOLS } from "../../lib/agents/builtin-tools";
import type { RunState } from "./run-state";


// Model calls and side-effect-free built-in tools run as local activities:
// they execute inside the worker that holds the workflow task, so an
// iteration costs one round trip to Temporal instead of several, and their
// inputs (the growing conversation) are not copied into history each time.
// Side-effecting and MCP tools run as regular activities with heartbeats, so a
// dead worker is noticed within seconds and the call resumes elsewhere.
const { runInference } = proxyLocalActivities<AgentActivities>({
  startToCloseTimeout: "5 minutes",
  localRetryThreshold: "1 minute",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "30 seconds", maximumAttempts: 5 },
});

const { executeTool: executeLocalTool } = proxyLocalActivities<AgentActivities>({
  startToCloseTimeout: "2 minutes",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "10 seconds", maximumAttempts: 3 },
});

const { executeTool } = proxyActivities<AgentActivities>({
  startToCloseTimeout: "2 minutes",
  // Short, so a worker that died mid-call is noticed and the call retried quickly.
  heartbeatTimeout: "5 seconds",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "10 seconds", maximumAttempts: 3 },
});

const EVENTS_PER_ITERATION = 4;

const LOCAL_TOOLS = new Set<string>(BUILTIN_TOOLS.filter((t) => !t.sideEffect).map((t) => t.id));

const { describeTools } = proxyActivities<AgentActivities>({
  startToCloseTimeout: "1 minute",
  heartbeatTimeout: "20 seconds",
  retry: { initialInterval: "1 second", maximumAttempts: 2 },
});

function failureMessage(error: unknown): string {
  if (error instanceof ActivityFailure && error.cause instanceof Error) return error.cause.message;
  return error instanceof Error ? error.message : String(error);
}


export class AgentLoop {
  tools: FunctionTool[] = [];
  onStatusChange: () => void = () => undefined;
  private readonly conversations: SubAgentConversations;

  constructor(
    private readonly state: RunState,
    private readonly input: AgentRunInput,
    private readonly agentConfig: AgentConfig | undefined,
  ) {
    this.conversations = new SubAgentConversations(state, input, () => this.checkBudget());
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

  /** Runs iterations until the model answers; bounded by the run timeout. */
  async respond(): Promise<string> {
    const startedAt = Date.parse(this.state.turnStartedAt ?? new Date(Date.now()).toISOString());
    const remaining = Math.max(1, this.limits.runTimeoutSeconds * 1000 - (Date.now() - startedAt));
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
      if (timedOut && isCancellation(error)) throw new RunFailure("timeout", `no final answer within the run timeout of ${this.limits.runTimeoutSeconds} s`);
      throw error;
    } finally {
      timer.cancel();
    }
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
        await continueAsNew<(input: AgentRunInput) => Promise<unknown>>({ ...this.input, carried: state.snapshot() });
      }
      state.iteration++;
      state.iterationsThisTurn++;
      this.iterationsThisExecution++;
      const iterationSpan = state.startSpan("iteration", `iteration ${state.iteration}`, state.runSpanId || null);
      state.emit({ type: "iteration_started", iteration: state.iteration });
      state.baseStatus = "thinking";
      this.onStatusChange();

      const response = await this.infer(iterationSpan);
      if (response.toolCalls.length === 0) {
        const content = response.content ?? "";
        state.messages.push({ role: "assistant", content });
        state.endSpan(iterationSpan, "ok");
        return content;
      }
      const calls: ToolCall[] = response.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
      state.messages.push({ role: "assistant", content: response.content, tool_calls: calls });
      const outcomes = await Promise.all(calls.map((call) => this.runCall(call, iterationSpan)));
      calls.forEach((call, i) => state.messages.push({ role: "tool", tool_call_id: call.id, name: call.function.name, content: outcomes[i]?.content ?? "" }));
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
      output = await runInference({
        runId: workflowInfo().workflowId,
        iteration: state.iteration,
        agentName: agent.name,
        model: agent.model,
        messages: state.messages,
        tools: this.tools,
        temperature: agent.temperature,
        maxOutputTokens: agent.maxOutputTokens,
      });
    } catch (error) {
      state.endSpan(span, "error");
      if (isCancellation(error)) throw error;
      throw new RunFailure("model_error", failureMessage(error));
    }
    state.addUsage(output.usage);
    state.emit({
      type: "inference_completed",
      iteration: state.iteration,
      model: agent.model,
      usage: output.usage,
      latencyMs: output.latencyMs,
      toolCalls: output.toolCalls.length,
      attempts: output.attempt,
    });
    state.endSpan(span, "ok", { tokens: output.usage, attempts: output.attempt });
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

  private async runCall(call: ToolCall, parent: TraceSpan): Promise<CallOutcome> {
    const { state, agent } = this;
    const name = call.function.name;
    const span = state.startSpan("tool", name, parent.id, { callId: call.id });
    const started = Date.now();
    state.emit({ type: "tool_call_started", iteration: state.iteration, callId: call.id, tool: name, arguments: call.function.arguments });
    state.toolsInFlight++;
    this.onStatusChange();
    let outcome: CallOutcome;
    try {
      let rawArguments = call.function.arguments;
      const rule = matchingRule(agent, name);
      const approval = rule ? await this.awaitApproval(call, rule, span) : null;
      if (approval && approval.status !== "approved") {
        const reason = approval.decision?.reason ?? (approval.status === "expired" ? "nobody decided before the approval expired" : "no reason given");
        outcome = { ok: false, errorKind: "rejected", attempts: 0, content: `The call to ${name} was not approved (${approval.status}): ${reason}` };
      } else {
        if (approval?.decision?.editedArguments) rawArguments = JSON.stringify(approval.decision.editedArguments);
        outcome = name === "message_agent" && agent.subAgents.length > 0 ? await this.conversations.message(this.agent, rawArguments, span) : await this.callTool(call, rawArguments);
      }
    } finally {
      state.toolsInFlight--;
      this.onStatusChange();
    }
    const result = outcome.ok ? "ok" : outcome.errorKind === "rejected" ? "rejected" : "error";
    state.emit({ type: "tool_call_completed", iteration: state.iteration, callId: call.id, tool: name, outcome: result, durationMs: Date.now() - started, attempts: outcome.attempts, result: outcome.content });
    if (!outcome.ok && outcome.errorKind !== "rejected") state.emit({ type: "error", kind: outcome.errorKind ?? "tool", message: outcome.content, callId: call.id });
    state.endSpan(span, outcome.ok ? "ok" : "error", { attempts: outcome.attempts, attributes: { outcome: result } });
    return outcome;
  }

  private async callTool(call: ToolCall, rawArguments: string): Promise<CallOutcome> {
    try {
      const run = LOCAL_TOOLS.has(call.function.name) && this.agent.tools.includes(call.function.name) ? executeLocalTool : executeTool;
      const output: ToolActivityOutput = await run({
        agent: this.agent,
        toolName: call.function.name,
        rawArguments,
        runId: workflowInfo().workflowId,
        rootRunId: this.input.rootRunId,
        iteration: this.state.iteration,
        callId: call.id,
        runContext: this.input.context,
      });
      return { ok: output.ok, content: output.content, errorKind: output.ok ? undefined : output.errorKind, attempts: output.attempt };
    } catch (error) {
      if (isCancellation(error)) throw error;
      return { ok: false, errorKind: "execution", attempts: 3, content: `${call.function.name} failed after retries: ${failureMessage(error)}` };
    }
  }

  private async awaitApproval(call: ToolCall, rule: ApprovalRule, parent: TraceSpan): Promise<ApprovalRequest> {
    const { state } = this;
    const now = Date.now();
    const approval: ApprovalRequest = {
      id: uuid4(),
      runId: workflowInfo().workflowId,
      parentRunId: this.input.parentRunId,
      rootRunId: this.input.rootRunId,
      agentName: this.agent.name,
      toolName: call.function.name,
      toolCallId: call.id,
      arguments: parseArguments(call.function.arguments),
      requestedAt: new Date(now).toISOString(),
      expiresAt: new Date(now + rule.expiresInSeconds * 1000).toISOString(),
      requiredRole: rule.requiredRole ?? null,
      status: "pending",
      decision: null,
    };
    state.approvals.set(approval.id, approval);
    const span = state.startSpan("approval_wait", `approval for ${approval.toolName}`, parent.id, { approvalId: approval.id });
    state.emit({ type: "approval_requested", approval: { ...approval } });
    this.onStatusChange();
    const decided = await condition(() => approval.status !== "pending", rule.expiresInSeconds * 1000);
    if (!decided) {
      approval.status = "expired";
      state.emit({ type: "approval_decided", approvalId: approval.id, tool: approval.toolName, status: "expired", decidedBy: null, reason: "expired" });
    }
    state.endSpan(span, approval.status === "approved" ? "ok" : "error", { attributes: { decision: approval.status } });
    this.onStatusChange();
    return approval;
  }

  /** Applies a validated approval decision (the update's handler). */
  applyDecision(decision: DecideApprovalInput): ApprovalRequest {
    const approval = this.state.approvals.get(decision.approvalId);
    if (!approval || approval.status !== "pending") throw ApplicationFailure.create({ message: "approval is no longer pending" });
    approval.status = decision.approved ? "approved" : "rejected";
    approval.decision = {
      approved: decision.approved,
      reason: decision.reason,
      editedArguments: decision.editedArguments,
      decidedBy: decision.decidedBy,
      decidedAt: new Date(Date.now()).toISOString(),
    };
    this.state.emit({ type: "approval_decided", approvalId: approval.id, tool: approval.toolName, status: approval.status, decidedBy: decision.decidedBy.email, reason: decision.reason ?? null });
    this.onStatusChange();
    return { ...approval };
  }
}
