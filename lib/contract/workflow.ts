// Inputs and payloads of the agent workflow, shared by the workflow, the
// worker's activities and the engine client.
import type { AgentGraph, ApprovalRule } from "../agents/schemas";
import type { WorkspacePolicy } from "../policy/schemas";
import type { ApprovalRequest, ChatMessage, Conversation, ResultRef, RunEvent, RunStatus, TokenUsage, TraceSpan } from "./types";
import type { ImageRef } from "../attachments/schemas";

/** The sendUserMessage update's answer: the message is queued, or it interrupted the turn in progress. */
export interface UserMessageReceipt {
  outcome: "queued" | "interrupted";
}

export interface UserMessageSignal {
  content: string;
  /** Images sent with the message (references; the bytes stay in the attachment store). */
  images?: ImageRef[];
  /** Set by a parent agent: which turn of the conversation this message opens. */
  turn?: number;
  /** The run's first task (reported in run_started rather than as a user_message event). */
  initial?: boolean;
  /** The message interrupted the turn it arrived in (the graph's `interrupt` follow-up policy); set by the workflow. */
  interrupting?: boolean;
  /** A plan node's dependencies' results, by reference (its first message only). */
  results?: ResultRef[];
  /**
   * Set by a parent agent on a later turn of a conversation: the conversation's
   * token limit over all its turns (what it spent so far plus its share of what
   * the run tree has left). Absent from parents before the shares.
   */
  tokenBudget?: number;
  /** Who sent a follow-up (the web server sets it): "self", beside the starter, for the approvals of the calls that follow it. */
  sender?: PersonRef;
}

export interface SubAgentReplySignal {
  conversationId: string;
  turn: number;
  response: string;
  isComplete: boolean;
  failed: boolean;
  usage: TokenUsage;
  /** The typed answer, when the sub-agent has an output schema: the parent's message_agent result carries it as JSON. */
  data?: unknown;
}

export interface DecideApprovalInput {
  approvalId: string;
  approved: boolean;
  reason?: string;
  editedArguments?: Record<string, unknown>;
  /** `apiKeyId`: the API key the decision was made with (signed with the rest; the audit row names it). */
  decidedBy: { id: string; email: string; role: string; apiKeyId?: string };
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
  /** A child run's: who sent the follow-ups its ancestors' current turns answer (child-gate.ts). */
  senders?: PersonRef[];
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
  /** The agent speaking now, when a handoff changed it (absent: the run's own agent). */
  currentAgent?: string | null;
  /** Index of the first message the current agent sees (a handoff starts a new conversation in the same run). */
  conversationStart?: number;
  /** The run's iteration count when the current turn began (maxSteps counts the turn's iterations from it). */
  turnStartIteration?: number;
  /** Handoffs made so far. */
  handoffDepth?: number;
  /** JSON text of the last typed answer. */
  outputData?: string | null;
  /** The agent a router last gave the task to. */
  routedTo?: string | null;
  /** The model of the agent that handed off to the current one (for a receiver whose model is `inherit`). */
  handoffModel?: string | null;
  /** Tokens approvers granted beyond the budget (onBudget: "ask"). */
  budgetGranted?: number;
  /** The children a router gave this turn's task to that failed (not offered again this turn). */
  routingFailures?: { agentName: string; reason: string }[];
  /** Rejections of this turn's plan so far. */
  planRejections?: number;
  /** Plans this run has executed (each plan's child runs get ids of their own). */
  plansExecuted?: number;
  /** Who sent the message the current turn answers (a follow-up's sender), when the web server named one. */
  turnSender?: PersonRef;
}

/**
 * LEGACY: the engine behaviour stamped on runs by web servers before issue 22
 * (the engine client, or a parent run for its children). A web server cannot
 * know which worker build will run the run, so it no longer stamps it; the
 * workflow decides its behaviour changes itself, with patch markers at its
 * start (worker/workflows/engine-patches.ts), and reads this only for runs
 * stamped before. What the numbers meant:
 *   1 — a zero follow-up or idle window closes the run without a zero-timeout
 *       condition (whose SDK-internal patch marker a replay could meet in
 *       another workflow task than the one that recorded it).
 * (Skipping the describeTools round trip for an agent with nothing to describe
 * was tried as 2 and withdrawn: the whole first turn then fell into the run's
 * first activation beside the ledger's first write, and a replay of such a run
 * issued its commands in another order.)
 */
export const ENGINE_BEHAVIOUR = 1;

export interface AgentRunInput {
  graph: AgentGraph;
  agentName: string;
  /** The task (root run) or the first message (sub-agent conversation). */
  message: string;
  /** Images of the task (root runs only; absent in inputs of runs started before images). */
  images?: ImageRef[];
  /** A plan node's dependencies' results, by reference (read when the model is called; see ChatMessage). */
  results?: ResultRef[];
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
  /**
   * The web server's signature of this run's id and whole input, all but the proofs and `carried`
   * (lib/engine/run-start-signature.ts): a root run whose input it does not match fails
   * `unauthenticated` before it does anything. Child runs carry none.
   */
  startProof?: string;
  /**
   * LEGACY: issue 23's signature (id, graph, gate, starter, entry agent), still sent for workers of
   * earlier releases during a deploy; this release's workers never accept it alone.
   */
  runProof?: string;
  /**
   * The web server's signature of `carried` when a closed run continues with a message: a new execution
   * that Temporal does not record as continued, so its carried state must be vouched for like its input.
   */
  carriedProof?: string;
  /** The effective model of the agent that started this run (a parent, a router): an agent whose model is `inherit` uses it (DD-7). */
  parentModel?: string;
  /** See ENGINE_BEHAVIOUR; absent on runs started before it existed. */
  behaviour?: number;
  /** The run answers one task and closes (a router's chosen agent): no follow-up window. */
  oneShot?: boolean;
  /**
   * Names the side effects of this run's tool calls instead of the run id: every
   * attempt of one plan node shares it, so a retried node that repeats a call
   * (same tool, arguments and step) gets the first attempt's recorded result
   * instead of doing it again. Absent: keys are per run, as before.
   */
  sideEffectScope?: string;
  /**
   * The tape this run tree reuses recorded results from (lib/tapes: forks,
   * experiments): every child run inherits it with its own `path` (lib/tapes/paths.ts;
   * "" or absent for the root). Absent: the run executes everything, as before.
   */
  tape?: TapeRef;
  carried?: CarriedState;
}

/** A run's tape and where the run sits in its tree (see AgentRunInput.tape). */
export interface TapeRef {
  tapeId: string;
  path?: string;
}

export interface RunOutcome {
  status: "completed";
  output: string | null;
  /** JSON text of the typed answer, when the agent has an output schema. */
  outputData?: string | null;
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
  /** JSON text of the typed answer (absent in batches of runs started before typed answers). */
  outputData?: string | null;
  routedTo?: string | null;
  /** The run's task as a `mask` input guardrail redacted it (absent unless one did): the run row's task is rewritten with it. */
  task?: string;
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
  /** `withdrawn`: the workflow closed it unanswered (its turn was interrupted by a new message). */
  status: "approved" | "rejected" | "expired" | "endorsed" | "withdrawn";
  reason: string | null;
  editedArguments: Record<string, unknown> | null;
  decidedBy: { id: string; email: string; role: string; apiKeyId?: string } | null;
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
