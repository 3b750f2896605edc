// The agent workflow's contract: its type name, the names and payload types of
// its signals, queries and updates, and the error types its update raises.
// The workflow registers handlers for these definitions and the engine client
// calls them, so both sides are checked against one declaration.
import { defineQuery, defineSignal, defineUpdate } from "@temporalio/workflow";
import type { ApprovalRequest, Conversation, RunSummary } from "./types";
import type { AgentRunInput, CarriedState, DecideApprovalInput, SubAgentReplySignal, UserMessageReceipt, UserMessageSignal } from "./workflow";

export const AGENT_WORKFLOW_TYPE = "agentRunWorkflow";

/** A user (or a parent agent) sends a message. */
export const userMessageSignal = defineSignal<[UserMessageSignal]>("userMessage");
/**
 * A user sends a message, under the graph's follow-up policy (limits.followUps): the validator refuses it
 * with FOLLOW_UP_ERRORS.busy while the run works on a turn and the policy is `reject`; otherwise the message
 * is queued (and, under `interrupt`, the turn in progress is cancelled). Executions without the handler take
 * the signal above.
 */
export const userMessageUpdate = defineUpdate<UserMessageReceipt, [UserMessageSignal]>("sendUserMessage");
/** A sub-agent reports the reply to one turn of a conversation. */
export const subAgentReplySignal = defineSignal<[SubAgentReplySignal]>("subAgentReply");

/** Small, bounded views of a run; whatever grows with a run (events, spans, messages) is read from the run ledger. */
export const summaryQuery = defineQuery<RunSummary>("summary");
export const pendingApprovalsQuery = defineQuery<ApprovalRequest[]>("pendingApprovals");
export const conversationsQuery = defineQuery<Conversation[]>("conversations");
/** What the run would carry across continue-as-new (used to continue a closed run); bounded. */
export const snapshotQuery = defineQuery<CarriedState>("snapshot");
/** The run's start input without carried state. */
export const inputQuery = defineQuery<AgentRunInput>("input");

/** Approve or reject a pending approval; answers the approval as decided, or fails with an APPROVAL_ERRORS type. */
export const decideApprovalUpdate = defineUpdate<ApprovalRequest, [DecideApprovalInput]>("decideApproval");

/** Error types raised by the decideApproval update (ApplicationFailure types). */
export const APPROVAL_ERRORS = {
  notFound: "ApprovalNotFound",
  alreadyDecided: "ApprovalAlreadyDecided",
  invalidArguments: "InvalidEditedArguments",
  forbidden: "ApprovalForbidden",
  /** Raised by the recording activity (not the update): the decision's signature is missing, wrong or too old. */
  badSignature: "ApprovalSignatureInvalid",
} as const;

/** Error types raised by the sendUserMessage update's validator. */
export const FOLLOW_UP_ERRORS = {
  /** The run works on a turn and its graph takes no message until it answers (followUps: reject). */
  busy: "RunBusy",
  /** The run is closing (its follow-up window ended, or it failed or was cancelled): the message goes to the closed run instead. */
  closing: "RunClosing",
} as const;

/** Activity error types. */
export const ACTIVITY_ERRORS = {
  /** A model call failed; retryable or not as the provider said. */
  model: "ModelError",
  /** A tool's external dependency failed (e.g. an unreachable MCP server); the message is safe to show. */
  toolUnavailable: "ToolUnavailable",
  /** An infrastructure failure (database, network, a bug); retried, details only in the worker log. */
  infrastructure: "InfrastructureError",
} as const;

/**
 * Workflow task timeout of agent runs (Temporal's default). A task takes
 * milliseconds of CPU, but on a busy worker it also waits for the process's
 * event loop, which the synchronous SQLite driver and hundreds of concurrent
 * runs share: with 100 runs deciding at once on 2 loaded cores, tasks took up
 * to 4–5 s from start to completion. At 2 s they timed out, each timeout
 * evicted the run and replayed it (more load), and approval updates were
 * refused while a run's task was failing. Model calls run as local activities,
 * which heartbeat the task at 80 % of this timeout: a cancel request or a
 * run-timeout timer reaches a run in the middle of a long model call within 8 s.
 */
export const AGENT_WORKFLOW_TASK_TIMEOUT = "10 seconds";
