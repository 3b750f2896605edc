// Inputs and payloads of the agent workflow, shared by the workflow, the
// worker's activities and the engine client.
import type { AgentGraph, ApprovalRule } from "../agents/schemas";
import type { WorkspacePolicy } from "../policy/schemas";
import type { ApprovalRequest, ChatMessage, Conversation, RunEvent, RunStatus, TokenUsage, TraceSpan } from "./types";

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
  /** When the web server signed the decision (ISO time); decisions older than the signature window are refused. */
  issuedAt?: string;
  /** HMAC-SHA256 of the decision by the web server (lib/engine/decision-signature.ts); checked where it is recorded. */
  signature?: string;
}

/** A person, by user id and email. */
export interface PersonRef {
  id: string;
  email: string;
}

/**
 * The approval gate of a run, fixed when the run starts: the workspace policy
 * as it was then, the rules of the agents above this one (sub-agents inherit
 * them), and the people who may not approve its calls unless the rules and
 * the policy allow self-approval.
 */
export interface RunGate {
  policy: WorkspacePolicy;
  policyRevision: number;
  /** Rules of every ancestor agent in this run (empty for the root run). */
  inheritedRules: ApprovalRule[];
  /** Who started the run. */
  starter: PersonRef | null;
  /** Who saved the agent version the run executes (null for inline graphs). */
  author: PersonRef | null;
}

/**
 * Everything a run carries across continue-as-new. Bounded: events, spans and
 * messages live in the run ledger (database); only counters, open spans,
 * conversations and recent approvals are carried.
 */
export interface CarriedState {
  generation: number;
  startedAt: string;
  /** Sequence number of the last event emitted. */
  lastSeq: number;
  /** Number of messages in the conversation (stored in the ledger). */
  messageCount: number;
  /** Spans still running (the run span, at least). */
  openSpans: TraceSpan[];
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
  /** When the last turn ended (null while working). */
  endedAt: string | null;
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
  /** The saved agent graph and version the run executes (null for inline graphs). */
  graphName?: string | null;
  agentVersionId?: string | null;
  /** The approval gate (absent only on runs started before it existed: they get the fallback policy). */
  gate?: RunGate;
  carried?: CarriedState;
}

export interface RunOutcome {
  status: "completed";
  output: string | null;
  usage: TokenUsage;
  iterations: number;
}

/** The run's identity as written to its ledger row. */
export interface LedgerRunIdentity {
  runId: string;
  rootRunId: string;
  parentRunId: string | null;
  agentName: string;
  task: string;
  context: Record<string, unknown>;
  startedBy: string | null;
  graphName: string | null;
  agentVersionId: string | null;
}

/** The run row's changing fields, as of the batch. */
export interface LedgerRunSummary {
  status: RunStatus;
  iteration: number;
  usage: TokenUsage;
  pendingApprovals: number;
  lastEventSeq: number;
  messageCount: number;
  generation: number;
  output: string | null;
  error: { reason: string; message: string } | null;
  startedAt: string;
  endedAt: string | null;
}

/**
 * One write to the run ledger: what happened since the previous batch. Writes
 * are idempotent (events and messages by sequence number, spans and approvals
 * by id), so a replayed or retried batch never duplicates or loses anything.
 */
export interface LedgerBatch {
  run: LedgerRunIdentity;
  summary: LedgerRunSummary;
  events: RunEvent[];
  spans: TraceSpan[];
  messages: { index: number; message: ChatMessage }[];
  approvals: ApprovalRequest[];
}

/**
 * A decision, an expiry, or one endorsement of a call that needs several
 * approvals — recorded before the workflow applies it.
 */
export interface ApprovalOutcomeRecord {
  approval: ApprovalRequest;
  status: "approved" | "rejected" | "expired" | "endorsed";
  reason: string | null;
  editedArguments: Record<string, unknown> | null;
  decidedBy: { id: string; email: string; role: string } | null;
  decidedAt: string;
  /** The web server's signature of the decision (absent for expiries, which the workflow's timer decides). */
  signature?: string;
  issuedAt?: string;
}

/** What the approval webhook is told. */
export interface ApprovalNotification {
  event: "approval.requested" | "approval.endorsed" | "approval.approved" | "approval.rejected" | "approval.expired";
  approval: ApprovalRequest;
  at: string;
}
