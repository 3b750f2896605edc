// What a run answers and accepts from outside while it works: the signals
// (follow-up messages, sub-agent replies), the queries (summary, pending
// approvals, conversations, snapshot, input) and the approval update, and
// the run summary the queries and the run ledger's row share.
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
import type { AgentRunInput, LedgerRunSummary } from "../../lib/contract/workflow";
import type { RunSummary } from "../../lib/contract/types";
import type { AgentLoop } from "./agent-loop";
import type { RunState } from "./run-state";

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

/** Registers every signal, query and update handler of the agent workflow. */
export function registerHandlers(state: RunState, loop: AgentLoop, input: AgentRunInput): void {
  setHandler(userMessageSignal, (message) => {
    state.inbox.push({ content: message.content, turn: message.turn, ...(message.images?.length ? { images: message.images } : {}) });
  });
  setHandler(subAgentReplySignal, (reply) => loop.receiveReply(reply));
  setHandler(summaryQuery, () => summarize(state, input));
  setHandler(pendingApprovalsQuery, () => state.pendingApprovals());
  setHandler(conversationsQuery, () => [...state.conversations.values()]);
  setHandler(snapshotQuery, () => state.snapshot());
  setHandler(inputQuery, () => ({ ...input, carried: undefined }));
  setHandler(decideApprovalUpdate, (decision) => loop.approvals.decide(decision), { validator: (decision) => loop.approvals.validate(decision) });
}
