// One agent's turn inside the workflow: iterations of a model call and the
// parallel tool calls of its response, until a final answer, within the run
// timeout and the iteration cap. The jobs themselves live beside it: the
// model call (inference.ts), tool calls (tool-calls.ts), approvals
// (approvals.ts), sub-agent conversations (sub-agents.ts) and budgets
// (budget.ts); this class coordinates them.
import { CancellationScope, allHandlersFinished, condition, continueAsNew, isCancellation, sleep, workflowInfo } from "@temporalio/workflow";
import type { AgentConfig, RunLimits } from "../../lib/agents/schemas";
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

export class AgentLoop {
  onStatusChange: () => void = () => undefined;
  readonly approvals: Approvals;
  private readonly conversations: SubAgentConversations;
  private readonly toolCalls: ToolCalls;
  private readonly history: HistoryBudget;

  constructor(
    private readonly state: RunState,
    private readonly input: AgentRunInput,
    private readonly agentConfig: AgentConfig | undefined,
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

  private get agent(): AgentConfig {
    if (!this.agentConfig) throw new RunFailure("invalid_config", `agent "${this.input.agentName}" is not in the graph`);
    return this.agentConfig;
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

  checkBudget(): void {
    checkTokenBudget(this.state, this.limits);
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
      if (timedOut && isCancellation(error)) throw runTimeoutFailure(this.limits);
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
        await this.ledger.flushed();
        await continueAsNew<(input: AgentRunInput) => Promise<unknown>>({ ...this.input, carried: state.snapshot() });
      }
      state.iteration++;
      state.iterationsThisTurn++;
      this.history.countIteration();
      const iterationSpan = state.startSpan("iteration", `iteration ${state.iteration}`, state.runSpanId || null, { iteration: state.iteration });
      state.emit({ type: "iteration_started", iteration: state.iteration });
      state.baseStatus = "thinking";
      this.onStatusChange();

      const response = await infer(
        { state, agent, limits: this.limits, ledger: this.ledger, tools: this.toolCalls.tools, deadline: this.deadline, eagerTools: () => this.toolCalls.eagerTools() },
        iterationSpan,
      );
      this.toolCalls.useEagerOutcomes(response.toolOutcomes);
      if (response.toolCalls.length === 0) {
        const content = response.content ?? "";
        state.pushMessage({ role: "assistant", content });
        state.endSpan(iterationSpan, "ok");
        return content;
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
