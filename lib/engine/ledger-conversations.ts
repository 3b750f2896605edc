// A run's sub-agent conversations as its ledger recorded them: what the
// engine client answers when the run's workflow cannot (its conversations
// query failed or timed out). Built from the run's sub_agent_message and
// sub_agent_reply events, so it trails the workflow by at most one ledger batch.
import type { Db } from "../db/prisma";
import type { Conversation, RunStatus } from "../contract/types";
import { readEventsOfTypes } from "../run-ledger/read";

/** Enough for any run: a conversation turn writes two events. */
const CONVERSATION_EVENTS_MAX = 20_000;

/** Run statuses after which no conversation of the run is alive: the run cancelled them as it closed. */
const CLOSED: readonly RunStatus[] = ["failed", "cancelled"];

/**
 * The conversations of `runId`, in the order they started. A conversation is
 * active until a reply said it is complete or the run failed or was cancelled
 * (the ledger does not record a conversation that ended without a reply).
 */
export async function ledgerConversations(db: Db, runId: string, runStatus: RunStatus): Promise<Conversation[]> {
  const events = await readEventsOfTypes(db, runId, ["sub_agent_message", "sub_agent_reply"], { take: CONVERSATION_EVENTS_MAX });
  const byId = new Map<string, Conversation>();
  for (const event of events) {
    if (event.type !== "sub_agent_message" && event.type !== "sub_agent_reply") continue;
    const conversation = byId.get(event.conversationId) ?? {
      conversationId: event.conversationId,
      agentName: event.agentName,
      turns: 0,
      isActive: true,
      lastResponse: null,
      startedAt: event.at,
    };
    conversation.turns = Math.max(conversation.turns, event.turn);
    if (event.type === "sub_agent_reply") {
      conversation.lastResponse = event.response;
      if (event.isComplete) conversation.isActive = false;
    }
    byId.set(event.conversationId, conversation);
  }
  const closed = CLOSED.includes(runStatus);
  return [...byId.values()].map((c) => (closed ? { ...c, isActive: false } : c));
}
