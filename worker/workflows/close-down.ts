// How a run closes down, whatever ended it: it tells its parent how it ended
// (a conversation), cancels its live sub-agent conversations, lets signal and
// update handlers finish, waits for approval notifications to be delivered and
// for the ledger's last write. The steps always run in this order; a path
// leaves a step out, never reorders them, because Temporal replays each run's
// history against the commands this sequence issues.
import { CancellationScope, allHandlersFinished, condition, getExternalWorkflowHandle } from "@temporalio/workflow";
import type { TokenUsage } from "../../lib/contract/types";
import type { AgentRunInput } from "../../lib/contract/workflow";
import type { Approvals } from "./approvals";
import type { RunLedger } from "./run-ledger";
import type { RunState } from "./run-state";
import { notifyParent, type ParentReply } from "./sub-agents";

/** The run being closed down. */
export interface ClosingRun {
  input: AgentRunInput;
  state: RunState;
  approvals: Approvals;
  ledger: RunLedger;
}

/**
 * The steps a path takes beyond the common ones. Completed: tells the parent
 * and waits for handlers. Failed: tells the parent. Cancelled, and an idle
 * conversation its parent closed: neither.
 */
export interface CloseDownSteps {
  /** The reply sent to the parent first (notifyParent does nothing for a root run). */
  parentReply?: { reply: ParentReply; usageBefore: TokenUsage };
  /** Waits for signal and update handlers in flight (an approval decision being recorded) before the last write. */
  awaitHandlers: boolean;
}

/** Ends every live sub-agent conversation (they were started with an ABANDON close policy). */
async function cancelConversations(state: RunState): Promise<void> {
  await CancellationScope.nonCancellable(async () => {
    for (const conversation of state.conversations.values()) {
      if (!conversation.isActive) continue;
      conversation.isActive = false;
      await getExternalWorkflowHandle(conversation.conversationId).cancel().catch(() => undefined);
    }
  });
}

/** Runs the close-down sequence; the caller then returns the run's outcome or throws its failure. */
export async function closeDown(run: ClosingRun, steps: CloseDownSteps): Promise<void> {
  if (steps.parentReply) await notifyParent(run.input, run.state, steps.parentReply.reply, steps.parentReply.usageBefore);
  await cancelConversations(run.state);
  if (steps.awaitHandlers) await condition(allHandlersFinished);
  await run.approvals.delivered();
  await run.ledger.flushed();
}
