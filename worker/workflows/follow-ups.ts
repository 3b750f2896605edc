// Messages that arrive while a run works (docs/engine.md "Messages that arrive
// mid-run"). A user's message comes as the sendUserMessage update; the graph's
// follow-up policy (limits.followUps) decides, in the update's validator and
// handler, what it does to the turn in progress:
//   enqueue   — queued, answered after the turn (in order of arrival);
//   reject    — refused by the validator while the run works (never in history);
//   interrupt — queued, and the turn's work scope is cancelled: the turn closes
//               (spans ended as interrupted, open calls answered "no result",
//               pending approvals withdrawn) and a new turn takes the message.
// The validator and the handler's first, synchronous part run back to back for
// each update of an activation, so of two messages sent at once to an idle
// `reject` run the first is queued before the second is validated: exactly one
// is accepted. Parent agents keep the userMessage signal (always queued).
import { ApplicationFailure, setHandler } from "@temporalio/workflow";
import type { FollowUpPolicy } from "../../lib/agents/schemas";
import { FOLLOW_UP_ERRORS, userMessageUpdate } from "../../lib/contract/definitions";
import type { ChatMessage } from "../../lib/contract/types";
import type { AgentRunInput, UserMessageReceipt, UserMessageSignal } from "../../lib/contract/workflow";
import type { Approvals } from "./approvals";
import type { EnginePatches } from "./engine-patches";
import type { RunState } from "./run-state";

/** What a `reject` run answers a message sent while it works (the 409's message). */
export const RUN_BUSY_MESSAGE =
  "The run is still working on its current turn, and this agent takes no message until it answers (its follow-up policy is reject). Send the message again once the run has answered.";

/** Why the interrupted turn's leftovers were closed (approvals withdrawn, tool calls without a result). */
export const INTERRUPTED_REASON = "superseded: the turn was interrupted by a new message";

/** The policy this execution applies: the graph's, once the execution asked the patch; before it, every message is queued. */
export function followUpPolicyOf(limits: { followUps?: FollowUpPolicy }, patches: Pick<EnginePatches, "followUpPolicy">): FollowUpPolicy {
  return patches.followUpPolicy ? (limits.followUps ?? "enqueue") : "enqueue";
}

/** Whether the run works: a turn in progress, or a message queued that starts one (the run's own task included). */
export function runIsWorking(state: Pick<RunState, "inTurn" | "inbox">): boolean {
  return state.inTurn || state.inbox.length > 0;
}

/** The turn that can be interrupted: the agent loop's respond() while it runs. */
export interface InterruptibleTurn {
  /** Cancels the turn in progress (once); whether a turn is being interrupted. */
  interrupt(): boolean;
}

/** Registers the sendUserMessage update under the execution's policy; `queue` is what the userMessage signal does with a message. */
export function registerFollowUpUpdate(state: RunState, input: AgentRunInput, turn: InterruptibleTurn, queue: (message: UserMessageSignal) => void): void {
  const policy = followUpPolicyOf(input.graph.limits, state.patches);
  setHandler(
    userMessageUpdate,
    (message): UserMessageReceipt => {
      // A message that arrives while an interrupted turn is still closing joins the same new turn.
      const interrupting = policy === "interrupt" && state.inTurn && turn.interrupt();
      queue(interrupting ? { ...message, interrupting: true } : message);
      return { outcome: interrupting ? "interrupted" : "queued" };
    },
    {
      validator: (_message: UserMessageSignal) => {
        // A run past its loop would drop the message: the engine waits for it to close and continues it (or says it ended).
        if (state.patches.followUpPolicy && (state.closed || state.terminal !== null)) {
          throw ApplicationFailure.create({ type: FOLLOW_UP_ERRORS.closing, message: "the run is closing", nonRetryable: true });
        }
        if (policy === "reject" && runIsWorking(state)) throw ApplicationFailure.create({ type: FOLLOW_UP_ERRORS.busy, message: RUN_BUSY_MESSAGE, nonRetryable: true });
      },
    },
  );
}

/** Takes the messages a new turn starts with: the next one, and with an interrupting one every interrupting message queued behind it. */
export function takeTurnMessages(inbox: UserMessageSignal[]): UserMessageSignal[] {
  const first = inbox.shift();
  if (!first) return [];
  const taken = [first];
  while (first.interrupting && inbox[0]?.interrupting) taken.push(inbox.shift() as UserMessageSignal);
  return taken;
}

/**
 * Closes a turn whose work was cancelled for a new message: the tool calls the
 * model asked for and got no result for are answered "no result" (the history
 * stays well-formed for the next model call), every span still open under the
 * run ends as interrupted, the conversations it started are over (their child
 * workflows were cancelled with it), approvals still pending are withdrawn (recorded,
 * so the inbox no longer holds them), and the run says so in its events.
 */
export async function closeInterruptedTurn(
  state: RunState,
  approvals: Approvals,
  turn: { openCalls: readonly { id: string; name: string }[]; conversationsBefore: ReadonlySet<string> },
): Promise<void> {
  for (const call of turn.openCalls) {
    const message: ChatMessage = { role: "tool", tool_call_id: call.id, name: call.name, content: `No result: ${INTERRUPTED_REASON}.` };
    state.pushMessage(message);
  }
  for (const span of [...state.openSpans.values()]) {
    if (span.id === state.runSpanId) continue;
    state.endSpan(span, "error", { attributes: { outcome: "interrupted" } });
  }
  // A child workflow is cancelled with the scope it was started in: a conversation the turn started has ended.
  for (const [id, conversation] of state.conversations) if (!turn.conversationsBefore.has(id)) conversation.isActive = false;
  const withdrawn = await approvals.withdrawPending(INTERRUPTED_REASON);
  state.inTurn = false;
  state.emit({ type: "turn_interrupted", turn: state.turn, message: "interrupted by a new message", withdrawnApprovals: withdrawn });
}
