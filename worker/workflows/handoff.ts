// Handoffs (seed §7): an agent passes the conversation to another for good.
// The run goes on in the same workflow as the receiving agent: its system
// prompt, then one message with the context the sender chose (summary, recent
// messages or full transcript) and the task; from there the model sees only
// the receiver's conversation, and the receiver's answer is the run's answer.
// Handoffs are counted against the run's maxHandoffs (A → B → A is allowed
// within it).
import { proxyActivities, proxyLocalActivities, workflowInfo } from "@temporalio/workflow";
import type { AgentActivities } from "../activities/agent";
import type { ModelToolCall } from "../models/types";
import type { AgentConfig, AgentGraph } from "../../lib/agents/schemas";
import { renderPrompt } from "../../lib/agents/template";
import { HANDOFF_TOOL, handoffPrompt, handoffsOf } from "../../lib/contract/system-tools";
import type { TraceSpan } from "../../lib/contract/types";
import type { AgentRunInput } from "../../lib/contract/workflow";
import type { RunLedger } from "./run-ledger";
import { RunFailure } from "./run-failure";
import type { RunState } from "./run-state";

const HANDOFF_CONTEXT_OPTIONS = { startToCloseTimeout: "30 seconds", retry: { initialInterval: "500 milliseconds", maximumAttempts: 5 } } as const;

// Executions before steps-in-history built the context in a local activity (their replays still do).
const { handoffContext: handoffContextLocal } = proxyLocalActivities<AgentActivities>(HANDOFF_CONTEXT_OPTIONS);
// A regular activity: its result is an event of its own (engine-patches.ts stepsInHistory).
const { handoffContext: handoffContextInHistory } = proxyActivities<AgentActivities>(HANDOFF_CONTEXT_OPTIONS);

/** A valid handoff call of the response: its target and reason, or the problem the model must hear. */
export function handoffRequest(agent: AgentConfig, toolCalls: ModelToolCall[]): { to: string; reason: string } | { problem: string } | null {
  const call = toolCalls.find((c) => c.name === HANDOFF_TOOL);
  const handoffs = handoffsOf(agent);
  if (!call || handoffs.length === 0) return null;
  let args: { agent?: unknown; reason?: unknown };
  try {
    args = JSON.parse(call.arguments) as typeof args;
  } catch {
    return { problem: `The arguments for ${HANDOFF_TOOL} are not JSON. Send {"agent": one of ${handoffs.join(", ")}, "reason": "..."}.` };
  }
  const to = typeof args.agent === "string" ? args.agent : "";
  if (!handoffs.includes(to)) return { problem: `"${to}" is not an agent ${agent.name} can hand off to. Choose one of: ${handoffs.join(", ")}.` };
  const reason = typeof args.reason === "string" && args.reason.trim() ? args.reason.trim().slice(0, 500) : "no reason given";
  return { to, reason };
}

/** The task of the current turn: the latest user message the receiving agent should act on. */
export interface HandoffTurn {
  task: string;
}

/**
 * Moves the run to `to`: checks the cap, builds the receiver's context from
 * the ledger, starts its conversation and records the handoff on the trace.
 * Returns the receiving agent's config.
 */
export async function handOff(
  run: { state: RunState; input: AgentRunInput; ledger: RunLedger; graph: AgentGraph },
  from: AgentConfig,
  request: { to: string; reason: string },
  turn: HandoffTurn,
  parent: TraceSpan,
): Promise<AgentConfig> {
  const { state, input, ledger, graph } = run;
  const target = graph.agents.find((a) => a.name === request.to);
  if (!target) throw new RunFailure("invalid_config", `agent "${request.to}" is not in the graph`);
  const depth = state.handoffDepth + 1;
  if (depth > graph.limits.maxHandoffs) {
    throw new RunFailure("handoff_depth_exceeded", `${from.name} tried to hand off to ${request.to}, but the run already made ${state.handoffDepth} handoffs (maxHandoffs ${graph.limits.maxHandoffs})`);
  }
  const span = state.startSpan("handoff", `${from.name} → ${request.to}`, parent.id, { from: from.name, to: request.to, reason: request.reason, depth, context: from.handoffContext });
  // The ledger holds every message up to here once the pending batch is written.
  await ledger.written();
  const handoffContext = state.patches.stepsInHistory ? handoffContextInHistory : handoffContextLocal;
  const context = await handoffContext({
    runId: workflowInfo().workflowId,
    messageCount: state.messageCount,
    conversationStart: state.conversationStart,
    mode: from.handoffContext,
    recentMessages: from.handoffRecentMessages,
    from: from.name,
  });
  const messageIndex = state.messageCount;
  state.handoffDepth = depth;
  // A receiver whose model is `inherit` runs on the sender's (DD-7).
  state.handoffModel = from.model;
  state.currentAgent = target.name;
  state.conversationStart = messageIndex;
  state.pushMessage({ role: "system", content: renderPrompt(target.systemPrompt, input.context).text });
  state.pushMessage({ role: "user", content: handoffPrompt({ from: from.name, reason: request.reason, context, task: turn.task }) });
  state.emit({ type: "handoff", from: from.name, to: target.name, reason: request.reason, depth, context: from.handoffContext, messageIndex });
  state.endSpan(span, "ok");
  return target;
}
