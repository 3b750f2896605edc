// What a run answers and accepts from outside while it works: the signals
// (follow-up messages, sub-agent replies), the queries (summary, pending
// approvals, conversations, snapshot, input), the approval and user-message
// updates, and the run summary the queries and the run ledger's row share.
import { setHandler, workflowInfo } from "@temporalio/workflow";
import {
  conversationsQuery,
  decideApprovalUpdate,
  inputQuery,
  pendingApprovalsQuery,
  snapshotQuery,
  subAgentReplySignal,
  summaryQuery,
  userMessageSignal,
} from "../../lib/contract/definitions";
import type { AgentRunInput, LedgerRunSummary, UserMessageSignal } from "../../lib/contract/workflow";
import type { RunSummary } from "../../lib/contract/types";
import type { AgentLoop } from "./agent-loop";
import type { RunState } from "./run-state";
import { tokenLimit } from "./budget";
import { registerFollowUpUpdate } from "./follow-ups";

/** The run row's summary, as the run ledger writes it. */
export function ledgerSummary(state: RunState): LedgerRunSummary {
  return {
    status: state.status(),
    iteration: state.iteration,
    usage: state.usage,
    pendingApprovals: state.pendingApprovals().length,
    lastEventSeq: state.lastSeq,
    messageCount: state.messageCount,
    generation: state.generation,
    output: state.lastOutput,
    // Only runs that use typed answers or routing write these, so older runs' batches (and histories) keep their shape.
    ...(state.outputData !== null ? { outputData: state.outputData } : {}),
    ...(state.routedTo !== null ? { routedTo: state.routedTo } : {}),
    // Only a run whose input guardrails changed its task sends it (the row's task is rewritten with it).
    ...(state.maskedTask !== null ? { task: state.maskedTask } : {}),
    error: state.terminal ? { reason: state.terminal.reason, message: state.terminal.message } : null,
    startedAt: state.startedAt,
    endedAt: state.endedAt,
  };
}

/** The summary query's answer: the ledger summary with the run's identity. */
export function summarize(state: RunState, input: AgentRunInput): RunSummary {
  const summary = ledgerSummary(state);
  return {
    runId: workflowInfo().workflowId,
    rootRunId: input.rootRunId,
    parentRunId: input.parentRunId,
    agentName: input.agentName,
    status: summary.status,
    iteration: summary.iteration,
    usage: summary.usage,
    output: summary.output,
    ...(state.outputData !== null ? { outputData: JSON.parse(state.outputData) as unknown } : {}),
    routedTo: state.routedTo,
    error: state.terminal ? { reason: state.terminal.reason, message: state.terminal.message, ...(state.terminal.details ? { details: state.terminal.details } : {}) } : null,
    pendingApprovals: summary.pendingApprovals,
    lastEventSeq: summary.lastEventSeq,
    generation: summary.generation,
    startedAt: summary.startedAt,
    endedAt: summary.endedAt,
  };
}

/**
 * A conversation's parent grants it what the run tree has left, turn by turn
 * (sub-agents.ts): `tokenBudget` is the conversation's new limit over all its
 * turns, and the run's limit (the graph budget it started with plus
 * budgetGranted, budget.ts) becomes exactly that. The grant may be negative:
 * when the tree has less left than the conversation's first share, its limit
 * must shrink too. Parents before the shares never send it.
 */
function grantConversationBudget(state: RunState, input: AgentRunInput, tokenBudget: number): void {
  const before = tokenLimit(state, input.graph.limits);
  state.budgetGranted = tokenBudget - input.graph.limits.tokenBudget;
  // Warn again as the conversation nears its new, higher limit.
  if (tokenBudget > before) state.budgetWarned = false;
}

/** Registers every signal, query and update handler of the agent workflow. */
export function registerHandlers(state: RunState, loop: AgentLoop, input: AgentRunInput): void {
  const queue = (message: UserMessageSignal) => {
    if (message.tokenBudget !== undefined && input.conversation) grantConversationBudget(state, input, message.tokenBudget);
    // A sender can only add people who may not approve (self), so an unsigned one restricts and never widens.
    state.inbox.push({
      content: message.content,
      turn: message.turn,
      ...(message.images?.length ? { images: message.images } : {}),
      ...(message.sender ? { sender: message.sender } : {}),
      ...(message.interrupting ? { interrupting: true } : {}),
    });
  };
  setHandler(userMessageSignal, queue);
  // Registered in every execution (a handler adds no command); what it does beyond queueing is the patch's (follow-ups.ts).
  registerFollowUpUpdate(state, input, loop, queue);
  setHandler(subAgentReplySignal, (reply) => loop.receiveReply(reply));
  setHandler(summaryQuery, () => summarize(state, input));
  setHandler(pendingApprovalsQuery, () => state.pendingApprovals());
  // What the parent keeps for a conversation's token share is its own bookkeeping, not part of the conversation's description.
  setHandler(conversationsQuery, () => [...state.conversations.values()].map(({ spentTokens: _spent, ...conversation }) => conversation));
  setHandler(snapshotQuery, () => state.snapshot());
  setHandler(inputQuery, () => ({ ...input, carried: undefined }));
  setHandler(decideApprovalUpdate, (decision) => loop.approvals.decide(decision), { validator: (decision) => loop.approvals.validate(decision) });
}
