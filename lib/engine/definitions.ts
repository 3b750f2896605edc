// Names of the agent workflow's messages and its task-queue-independent
// constants. The workflow defines signals/queries/updates with these names;
// clients call them by the same names.
export const AGENT_WORKFLOW_TYPE = "agentRunWorkflow";

export const SIGNALS = {
  /** A user (or a parent agent) sends a message: `{ content, turn? }`. */
  userMessage: "userMessage",
  /** A sub-agent reports the reply to one turn of a conversation. */
  subAgentReply: "subAgentReply",
} as const;

export const QUERIES = {
  summary: "summary",
  status: "status",
  result: "result",
  history: "history",
  eventsSince: "eventsSince",
  pendingApprovals: "pendingApprovals",
  conversations: "conversations",
  trace: "trace",
  /** Everything the run would carry across continue-as-new (used to continue a closed run). */
  snapshot: "snapshot",
  /** The run's start input without carried state. */
  input: "input",
} as const;

export const UPDATES = {
  decideApproval: "decideApproval",
} as const;

/** Error types raised by the decideApproval validator (ApplicationFailure types). */
export const APPROVAL_ERRORS = {
  notFound: "ApprovalNotFound",
  alreadyDecided: "ApprovalAlreadyDecided",
  invalidArguments: "InvalidEditedArguments",
  forbidden: "ApprovalForbidden",
} as const;

/** Non-retryable activity error types. */
export const ACTIVITY_ERRORS = {
  model: "ModelError",
} as const;

/**
 * Workflow task timeout of agent runs. Model calls run as local activities,
 * which hold the workflow task and heartbeat it at 80 % of this timeout; only
 * then can a cancel request or a run-timeout timer reach the run. Short keeps
 * cancellation prompt; our workflow tasks themselves take milliseconds.
 */
export const AGENT_WORKFLOW_TASK_TIMEOUT = "2 seconds";
