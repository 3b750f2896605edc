// Inputs and payloads of the agent workflow, shared by the workflow, the
// worker's activities and the engine client.
import type { AgentGraph } from "../agents/schemas";
import type { ApprovalRequest, ChatMessage, Conversation, RunEvent, TokenUsage, TraceSpan } from "./types";

export interface UserMessageSignal {
  content: string;
  /** Set by a parent agent: which turn of the conversation this message opens. */
  turn?: number;
  /** The run's first task (reported in run_started rather than as a user_message event). */
  initial?: boolean;
}

export interface SubAgentReplySignal {
  conversationId: string;
  turn: number;
  response: string;
  isComplete: boolean;
  failed: boolean;
  usage: TokenUsage;
}

export interface DecideApprovalInput {
  approvalId: string;
  approved: boolean;
  reason?: string;
  editedArguments?: Record<string, unknown>;
  decidedBy: { id: string; email: string; role: string };
}

/** Everything a run carries across continue-as-new. */
export interface CarriedState {
  generation: number;
  startedAt: string;
  messages: ChatMessage[];
  events: RunEvent[];
  spans: TraceSpan[];
  iteration: number;
  iterationsThisTurn: number;
  inTurn: boolean;
  turnStartedAt: string | null;
  turn: number;
  usage: TokenUsage;
  budgetWarned: boolean;
  conversations: Conversation[];
  approvals: ApprovalRequest[];
  inbox: UserMessageSignal[];
  spanCounter: number;
  runSpanId: string;
  lastOutput: string | null;
}

export interface AgentRunInput {
  graph: AgentGraph;
  agentName: string;
  /** The task (root run) or the first message (sub-agent conversation). */
  message: string;
  context: Record<string, unknown>;
  rootRunId: string;
  parentRunId: string | null;
  depth: number;
  /** Present when this run is a sub-agent conversation. */
  conversation: { parentWorkflowId: string; conversationId: string } | null;
  startedBy: string | null;
  carried?: CarriedState;
}

export interface RunOutcome {
  status: "completed";
  output: string | null;
  usage: TokenUsage;
  iterations: number;
}
