// Sub-agent conversations inside the workflow: the message_agent tool starts a
// child workflow per conversation and exchanges one message per turn with it;
// the conversation's own run answers each turn with notifyParent.
import { CancellationScope, ParentClosePolicy, condition, getExternalWorkflowHandle, isCancellation, startChild, uuid4, workflowInfo } from "@temporalio/workflow";
import type { AgentConfig } from "../../lib/agents/schemas";
import type { EditMark, TokenUsage, TraceSpan } from "../../lib/contract/types";
import type { AgentRunInput, SubAgentReplySignal } from "../../lib/contract/workflow";
import { AGENT_WORKFLOW_TASK_TIMEOUT, AGENT_WORKFLOW_TYPE, subAgentReplySignal, userMessageSignal } from "../../lib/contract/definitions";
import { SA_AGENT_NAME, SA_PARENT_RUN_ID } from "../../lib/temporal/search-attribute-keys";
import type { ConversationRecord, RunState } from "./run-state";
import { RunFailure } from "./run-failure";
import { childGate } from "./child-gate";
import { childTape } from "./tape-paths";
import { tokenLimit } from "./budget";
import { childLimits } from "./child-task";

/** What one tool call produced, as the model will see it. */
/**
 * `replayed`: the result came from the run's tape (lib/tapes); `edited`: it came from the tape but someone wrote
 * it (a fork's edit: who, when), so it is never `replayed` nor a recorded approval; `approval`: how a taped run's
 * gate settled the call without an approval request.
 */
export type CallOutcome = { ok: boolean; content: string; errorKind?: string; attempts: number; retryReason?: string; validation?: "ok" | "failed"; replayed?: boolean; edited?: EditMark; approval?: "recorded" | "policy" };

/** Parses tool arguments leniently: anything but a JSON object is kept as `_raw`. */
export function parseArguments(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { _raw: raw };
  } catch {
    return { _raw: raw };
  }
}

export class SubAgentConversations {
  private readonly replies = new Map<string, SubAgentReplySignal>();
  /**
   * The shares of the run's tokens held by turns still waiting for their reply,
   * by `conversationId#turn`. Not carried: a turn waits inside a tool call, and
   * the run continues as new only between iterations.
   */
  private readonly reserved = new Map<string, number>();
  /** The turns asking for a share now (see claimShare); null between rounds. */
  private asking: { count: number; share: number | null } | null = null;

  constructor(
    private readonly state: RunState,
    private readonly input: AgentRunInput,
    /** A promise only when the run waits for an approver to grant more tokens. */
    private readonly checkBudget: () => Promise<void> | undefined,
  ) {}

  receiveReply(reply: SubAgentReplySignal): void {
    const key = `${reply.conversationId}#${reply.turn}`;
    if (!this.replies.has(key)) this.replies.set(key, reply);
    const conversation = this.state.conversations.get(reply.conversationId);
    if (conversation && reply.isComplete) conversation.isActive = false;
  }

  /**
   * Reserves what one more turn may spend, under `key`: what the run has left,
   * less the shares of the turns still waiting (they may spend theirs). The
   * message_agent calls of one response start together, each up to here
   * without an await, so every call joins the round the first one opened
   * before any resumes; they split what is left equally, as a plan's nodes
   * that start together do (else the first would take it all and the others
   * get nothing). A call that comes later (after an approval) opens a round
   * of its own.
   */
  private async claimShare(key: string): Promise<number> {
    const round = this.asking ?? { count: 0, share: null };
    this.asking = round;
    round.count++;
    await Promise.resolve();
    if (this.asking === round) this.asking = null;
    if (round.share === null) {
      const reserved = [...this.reserved.values()].reduce((sum, tokens) => sum + tokens, 0);
      round.share = Math.max(1, Math.floor((tokenLimit(this.state, this.input.graph.limits) - this.state.totalTokens() - reserved) / round.count));
    }
    this.reserved.set(key, round.share);
    return round.share;
  }

  /** The shares held by `conversationId`'s own turns still waiting (parallel messages to one conversation). */
  private reservedBy(conversationId: string): number {
    return [...this.reserved].reduce((sum, [key, tokens]) => (key.startsWith(`${conversationId}#`) ? sum + tokens : sum), 0);
  }

  /** Handles one message_agent call: start or continue a conversation, then wait for the reply to this turn. */
  async message(agent: AgentConfig, rawArguments: string, parent: TraceSpan): Promise<CallOutcome> {
    const reservation: { current: string | null } = { current: null };
    try {
      return await this.exchange(agent, rawArguments, parent, reservation);
    } finally {
      // A turn that failed to start or was cancelled while it waited gives its share back too.
      if (reservation.current !== null) this.reserved.delete(reservation.current);
    }
  }

  /** One turn of message(); the share it reserves is recorded under `reservation.current`. */
  private async exchange(agent: AgentConfig, rawArguments: string, parent: TraceSpan, reservation: { current: string | null }): Promise<CallOutcome> {
    const { state, input } = this;
    const args = parseArguments(rawArguments);
    const message = typeof args.message === "string" ? args.message : "";
    if (!message) return { ok: false, errorKind: "invalid_arguments", attempts: 0, content: "message_agent needs a non-empty `message`." };
    let conversation: ConversationRecord | undefined;
    // Each turn draws a share of what the run has left, so a parent and its sub-agents together keep to the budget.
    const shares = state.patches.subAgentShares;
    if (typeof args.conversation_id === "string") {
      conversation = state.conversations.get(args.conversation_id);
      if (!conversation) return { ok: false, errorKind: "invalid_arguments", attempts: 0, content: `There is no conversation "${args.conversation_id}". Start one with agent_name.` };
      if (!conversation.isActive) return { ok: false, errorKind: "execution", attempts: 0, content: `Conversation ${conversation.conversationId} has ended; start a new one with agent_name.` };
      conversation.turns++;
      // A conversation started before the shares (an earlier execution) keeps the whole budget it was started with.
      let tokenBudget: number | undefined;
      if (shares && conversation.spentTokens !== undefined) {
        const turnKey = `${conversation.conversationId}#${conversation.turns}`;
        reservation.current = turnKey;
        await this.claimShare(turnKey);
        // Its new limit over all its turns: what it spent, and the shares of its turns still waiting (this one's included).
        tokenBudget = conversation.spentTokens + this.reservedBy(conversation.conversationId);
      }
      try {
        await getExternalWorkflowHandle(conversation.conversationId).signal(userMessageSignal, {
          content: message,
          turn: conversation.turns,
          ...(tokenBudget !== undefined ? { tokenBudget } : {}),
          // The follow-up this turn answers: its sender is "self" for the calls the conversation makes now.
          ...(this.state.turnSender ? { sender: this.state.turnSender } : {}),
        });
      } catch (error) {
        if (isCancellation(error)) throw error;
        conversation.isActive = false;
        return { ok: false, errorKind: "execution", attempts: 1, content: `Conversation ${conversation.conversationId} has ended; start a new one with agent_name.` };
      }
    } else {
      const target = typeof args.agent_name === "string" ? args.agent_name : "";
      if (!agent.subAgents.includes(target)) {
        return { ok: false, errorKind: "invalid_arguments", attempts: 0, content: `"${target}" is not a sub-agent of ${agent.name}. Choose one of: ${agent.subAgents.join(", ")}.` };
      }
      if (input.depth + 1 > input.graph.limits.maxDepth) {
        throw new RunFailure("budget_exceeded", `sub-agent depth limit of ${input.graph.limits.maxDepth} reached: ${agent.name} (depth ${input.depth}) cannot start ${target}`);
      }
      const conversationId = `${workflowInfo().workflowId}.${target}-${uuid4().slice(0, 8)}`;
      let share: number | null = null;
      if (shares) {
        reservation.current = `${conversationId}#1`;
        share = await this.claimShare(reservation.current);
      }
      conversation = {
        conversationId,
        agentName: target,
        turns: 1,
        isActive: true,
        lastResponse: null,
        startedAt: new Date(Date.now()).toISOString(),
        ...(share !== null ? { spentTokens: 0 } : {}),
      };
      state.conversations.set(conversationId, conversation);
      const childInput: AgentRunInput = {
        // The share as the conversation's budget, which it fails at (the root alone asks approvers). Its run
        // timeout stays the graph's: it applies to each of its turns, which later turns of the parent may
        // start long after this one's deadline (Infinity leaves it out).
        graph: share !== null ? { ...input.graph, limits: { ...input.graph.limits, ...childLimits(share, Infinity) } } : input.graph,
        agentName: target,
        message,
        context: input.context,
        rootRunId: input.rootRunId,
        parentRunId: workflowInfo().workflowId,
        depth: input.depth + 1,
        conversation: { parentWorkflowId: workflowInfo().workflowId, conversationId },
        // A sub-agent whose model is `inherit` runs on its parent's (DD-7).
        parentModel: agent.model,
        ...(input.behaviour !== undefined ? { behaviour: input.behaviour } : {}),
        startedBy: input.startedBy,
        graphName: input.graphName ?? null,
        agentVersionId: input.agentVersionId ?? null,
        // The conversation inherits the run's gate and every rule above it: a sub-agent is no way around its parent's rules.
        gate: childGate(input, state, agent.approvalRules),
        // A taped run's conversation replays from the same tape, at its own path.
        ...childTape(state, workflowInfo().workflowId, conversationId),
      };
      // ABANDON: conversations outlive one execution of the parent (continue-as-new);
      // the parent cancels them itself when it ends or is cancelled.
      await startChild(AGENT_WORKFLOW_TYPE, {
        workflowId: conversationId,
        args: [childInput],
        workflowTaskTimeout: AGENT_WORKFLOW_TASK_TIMEOUT,
        parentClosePolicy: ParentClosePolicy.ABANDON,
        typedSearchAttributes: [
          { key: SA_AGENT_NAME, value: target },
          { key: SA_PARENT_RUN_ID, value: workflowInfo().workflowId },
        ],
      });
    }
    const turn = conversation.turns;
    const current = conversation;
    const span = state.startSpan("sub_agent", current.agentName, parent.id, { conversationId: current.conversationId, turn });
    state.emit({ type: "sub_agent_message", conversationId: current.conversationId, agentName: current.agentName, message, turn });
    const key = `${current.conversationId}#${turn}`;
    await condition(() => this.replies.has(key) || !current.isActive);
    // Answered or ended: the share goes back to the run (the reply's usage counts instead), before any wait for an approver below.
    if (reservation.current !== null) this.reserved.delete(reservation.current);
    reservation.current = null;
    const reply = this.replies.get(key);
    if (!reply) {
      state.endSpan(span, "error");
      return { ok: false, errorKind: "execution", attempts: 1, content: `Conversation ${current.conversationId} ended before ${current.agentName} replied.` };
    }
    current.lastResponse = reply.response;
    if (reply.isComplete) current.isActive = false;
    state.addUsage(reply.usage);
    if (shares && current.spentTokens !== undefined) current.spentTokens += reply.usage.inputTokens + reply.usage.outputTokens;
    state.emit({ type: "sub_agent_reply", conversationId: current.conversationId, agentName: current.agentName, response: reply.response, turn, isComplete: reply.isComplete });
    state.endSpan(span, reply.failed ? "error" : "ok", { tokens: reply.usage });
    const extension = this.checkBudget();
    if (extension) await extension;
    // A typed sub-agent's answer reaches the parent as JSON, not as text that holds JSON.
    const payload = { conversation_id: current.conversationId, agent_name: current.agentName, response: reply.data !== undefined ? reply.data : reply.response, is_complete: reply.isComplete };
    return reply.failed ? { ok: false, errorKind: "execution", attempts: 1, content: JSON.stringify(payload) } : { ok: true, attempts: 1, content: JSON.stringify(payload) };
  }
}

/** How a turn of a conversation ended, as its run tells the parent. */
export type ParentReply = Omit<SubAgentReplySignal, "conversationId" | "turn" | "usage">;

/** Tells the parent (if any) how the current turn ended. */
export async function notifyParent(input: AgentRunInput, state: RunState, reply: ParentReply, usageBefore: TokenUsage): Promise<void> {
  if (!input.conversation) return;
  const { parentWorkflowId, conversationId } = input.conversation;
  await CancellationScope.nonCancellable(() =>
    getExternalWorkflowHandle(parentWorkflowId)
      .signal(subAgentReplySignal, {
        conversationId,
        turn: state.turn,
        usage: { inputTokens: state.usage.inputTokens - usageBefore.inputTokens, outputTokens: state.usage.outputTokens - usageBefore.outputTokens },
        ...reply,
      })
      .catch(() => undefined),
  );
}
