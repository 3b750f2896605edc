// What the engine exposes about a run: statuses, messages (OpenAI chat format),
// events, approvals, conversations and trace spans. Pure types, shared by the
// workflow, the worker, the server and the browser.

import type { ImageRef } from "../attachments/schemas";

/** A page of run events when the caller names no limits: up to 500 events, about 1 MB of JSON. */
export const EVENT_PAGE_DEFAULTS = { limit: 500, maxBytes: 1_000_000 } as const;

export type RunStatus = "pending" | "thinking" | "awaiting_tool" | "awaiting_approval" | "completed" | "failed" | "cancelled";

export const TERMINAL_STATUSES: readonly RunStatus[] = ["completed", "failed", "cancelled"];

export type FailureReason =
  | "step_limit_exceeded"
  | "budget_exceeded"
  | "timeout"
  | "tool_error"
  | "model_error"
  | "cancelled"
  | "invalid_config"
  /** A router spent every allowed attempt (its children failed, or it chose none). */
  | "routing_exhausted"
  /** The answer failed its output schema after every repair. */
  | "validation_error"
  /** More handoffs than the run's maxHandoffs. */
  | "handoff_depth_exceeded"
  /** The agent called `fail`: a soft failure with its own reason (no retries spent, DD-4). */
  | "agent_failed"
  /** The planner's plan stayed invalid after every repair (or an approver rejected it twice). */
  | "plan_invalid"
  /** Every node of the plan failed, or the synthesis did. */
  | "plan_failed"
  /** A root run whose input the web server did not sign (started straight on the task queue, or altered): it ran nothing. */
  | "unauthenticated"
  /** A spend limit of the run's scope was reached while it worked: the limit stops runs, or its request to go on was rejected or expired. */
  | "spend_limit_reached"
  /** A guardrail of the agent (lib/guardrails) tripped with the action `block`, or a `rewrite` guardrail still tripped after its last rewrite. */
  | "guardrail_tripped";

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A finished plan node's result, by reference: the run that holds it in the ledger. */
export interface ResultRef {
  nodeId: string;
  agent: string;
  runId: string;
}

export type ChatMessage =
  | { role: "system"; content: string }
  /**
   * `images`: references to stored images (the bytes are loaded by the inference activity, never carried here).
   * `results`: a plan node's dependencies' results by reference (claim check): the model call reads them from
   * the ledger, so a wide fan-in never copies every result into workflow inputs and histories.
   */
  | { role: "user"; content: string; images?: ImageRef[]; results?: ResultRef[] }
  | { role: "assistant"; content: string | null; tool_calls?: ToolCall[] }
  | { role: "tool"; tool_call_id: string; name: string; content: string };

/** A step taken from a tape but written by someone rather than recorded (a fork's edit): who (email) and when. */
export interface EditMark {
  by: string;
  at: string;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ApprovalDecision {
  approved: boolean;
  reason?: string;
  editedArguments?: Record<string, unknown>;
  decidedBy: { id: string; email: string; role: string };
  decidedAt: string;
}

/** One person's approval of a call that needs several. */
export interface ApprovalEndorsement {
  by: { id: string; email: string; role: string };
  at: string;
  reason?: string;
}

export interface ApprovalRequest {
  id: string;
  runId: string;
  parentRunId: string | null;
  rootRunId: string;
  agentName: string;
  toolName: string;
  toolCallId: string;
  arguments: Record<string, unknown>;
  requestedAt: string;
  expiresAt: string;
  requiredRole: string | null;
  /** Distinct approvals needed; `endorsements` holds those given so far (a rejection ends it at once). */
  requiredApprovals: number;
  endorsements: ApprovalEndorsement[];
  /** Who started the run (email); refused as an approver when the rule forbids self-approval. */
  requestedBy: string | null;
  /** Who may not approve when self-approval is off: the run's starter and the version's author (by id and email). */
  selfIds?: string[];
  selfEmails?: string[];
  allowSelfApproval: boolean;
  onExpiry: "reject" | "approve";
  status: "pending" | "approved" | "rejected" | "expired";
  decision: ApprovalDecision | null;
  /**
   * What is asked: a tool call (absent on approvals of older runs), or more
   * tokens for a run at its budget (run limits onBudget "ask"): then
   * `arguments` is `{ tokens }`, the amount asked for, which the approver may edit.
   */
  kind?: "tool" | "budget" | "plan" | "spend_limit";
  /** A budget approval: the tokens the run had used and the budget in force when it asked. */
  budget?: { used: number; limit: number };
  /**
   * A spend limit approval (a limit with onReached "ask" reached while the run worked, lib/contract/spend-limit-approval.ts):
   * the limit and its spend when it asked. `arguments` is `{ limitId }`; nothing may be edited.
   */
  spendLimit?: SpendLimitHit;
  /** A tool call a guardrail (action `inbox`) sent to the inbox: the guardrail's name, the rule the approver reads. */
  guardrail?: string;
  /**
   * With `guardrail`: its check's type and the verdict's sentence ("The text contains a card number."), which
   * never quotes what was found. Absent on approvals asked before the inbox showed why (lib/contract/guardrail-approval.ts).
   */
  guardrailVerdict?: { check: string; reason: string };
  /**
   * The run did not answer when the inbox asked (lib/engine/pending-approvals.ts): this is the ledger's
   * record, which may trail the run; deciding it still goes to the run, which has the last word.
   */
  unconfirmed?: boolean;
}

export interface Conversation {
  conversationId: string;
  agentName: string;
  turns: number;
  isActive: boolean;
  lastResponse: string | null;
  startedAt: string;
}

/** The JSON the parent's model sees as the result of message_agent. */
export interface SubAgentReply {
  conversation_id: string;
  agent_name: string;
  response: string;
  is_complete: boolean;
}

type EventBody =
  | { type: "run_started"; agentName: string; task: string; depth: number }
  | { type: "user_message"; content: string; images?: ImageRef[] }
  /** A message arrived while the turn worked, under the graph's `interrupt` policy: the turn's work was cancelled, its task goes on in a new turn with the message. */
  | { type: "turn_interrupted"; turn: number; message: string; withdrawnApprovals: string[] }
  | { type: "iteration_started"; iteration: number }
  | { type: "inference_started"; iteration: number; model: string }
  | {
      type: "inference_completed";
      iteration: number;
      model: string;
      usage: TokenUsage;
      /** The step's duration: its span's end − start (lib/contract/step-duration.ts), what the trace, compare page and dashboard show. */
      latencyMs: number;
      /** The model call's own time by the worker's clock, without the scheduling and ledger write around it (absent on older runs). */
      modelMs?: number;
      toolCalls: number;
      attempts: number;
      /** When the model call started by the worker's clock (the event's own time is workflow time, which stands still while local activities run). */
      startedAt?: string;
      /** A taped run (fork, experiment) reused the recorded response: no model was called, usage is 0 and what the recording cost is `recordedUsage`. */
      replayed?: boolean;
      recordedUsage?: TokenUsage;
      /** A fork's edited model output: taken from the tape, but written by someone (who, when), never a recording. Never with `replayed`. */
      edited?: EditMark;
    }
  | { type: "tool_call_started"; iteration: number; callId: string; tool: string; arguments: string }
  | {
      type: "tool_call_completed";
      iteration: number;
      callId: string;
      tool: string;
      outcome: "ok" | "error" | "rejected";
      durationMs: number;
      attempts: number;
      result: string;
      /** A taped run reused the recorded result: the tool did not run. */
      replayed?: boolean;
      /** A fork's edited tool result: the tool did not run and nobody recorded this result; who wrote it and when. Never with `replayed`. */
      edited?: EditMark;
    }
  | { type: "approval_requested"; approval: ApprovalRequest }
  | { type: "approval_decided"; approvalId: string; tool: string; status: ApprovalRequest["status"]; decidedBy: string | null; reason: string | null }
  | { type: "approval_endorsed"; approvalId: string; tool: string; by: string; approvals: number; required: number }
  | { type: "sub_agent_message"; conversationId: string; agentName: string; message: string; turn: number }
  | { type: "sub_agent_reply"; conversationId: string; agentName: string; response: string; turn: number; isComplete: boolean }
  | { type: "budget_warning"; budget: "tokens"; used: number; limit: number }
  | { type: "error"; message: string; kind: string; callId?: string }
  | { type: "continued_as_new"; historyLength: number; generation: number }
  | { type: "output_invalid"; iteration: number; attempt: number; errors: string[]; repairing: boolean }
  | { type: "routing_decided"; decision: RoutingRecord }
  | { type: "routed_agent_failed"; agentName: string; runId: string; attempt: number; reason: string }
  | { type: "handoff"; from: string; to: string; reason: string; depth: number; context: "summary" | "recent" | "full"; messageIndex: number }
  | { type: "budget_extension_requested"; approvalId: string; used: number; limit: number; requested: number }
  | { type: "budget_extended"; granted: number; limit: number; by: string | null }
  | { type: "plan_proposed"; plan: import("./plan").Plan; attempt: number }
  | { type: "plan_node_started"; nodeId: string; agentName: string; runId: string; attempt: number }
  | {
      type: "plan_node_finished";
      nodeId: string;
      /** cancelled: the plan stopped (the run was cancelled or timed out, its budget ran out, the executor failed) before the node finished. */
      status: "completed" | "failed" | "skipped" | "cancelled";
      runId: string | null;
      /** Why it failed, was skipped ("dependency X failed") or was cancelled. */
      reason?: string;
      usage?: TokenUsage;
      attempts: number;
    }
  | {
      type: "plan_finished";
      outcome: import("./plan").PlanOutcome;
      completed: number;
      failed: number;
      skipped: number;
      /** Nodes stopped before they finished (absent in plans that ran to the end before cancellation was recorded). */
      cancelled?: number;
      /** Why the plan stopped (outcome cancelled). */
      reason?: string;
    }
  | {
      /** One guardrail check (worker/workflows/guardrails.ts): its verdict and what the engine did. Never holds the text it found. */
      type: "guardrail_checked";
      guardrail: string;
      guardrailKind: "input" | "output" | "tool_call" | "tool_result";
      check: string;
      action: "block" | "mask" | "rewrite" | "inbox" | "log";
      tripped: boolean;
      reason: string;
      /** What found something (PII detectors, "regex", "deny_list"), never the found text. */
      detectors: string[];
      spanId: string;
      /** Tool kinds: the call checked. */
      tool?: string;
      callId?: string;
      /** Judge checks: the judge's score (0–1), and its model call (tokens and cost count like any model call's). */
      score?: number;
      model?: string;
      usage?: TokenUsage;
    }
  | { type: "run_completed"; output: string; /** The typed answer, when the agent has an output schema. */ data?: unknown }
  | { type: "run_failed"; reason: FailureReason; message: string; details?: FailureDetails }
  | { type: "run_cancelled"; message: string };

/** A router's choice for one attempt, as the trace, the runs list and the API show it. */
export interface RoutingRecord {
  router: string;
  attempt: number;
  target: string;
  confidence: number;
  reason: string;
  fallback: string | null;
  /** Who takes the task: the target, or the fallback (or the router's default agent) when confidence was below the threshold. */
  chosen: string;
  fallbackTaken: boolean;
  threshold: number;
}

/** What a failure carries beyond its message (bounded: errors and output are truncated). */
export interface FailureDetails {
  /** validation_error: the schema errors of the last answer, and that answer. */
  errors?: string[];
  rawOutput?: string;
  /** routing_exhausted: the agents tried, in order, and how each ended. */
  attempts?: { agentName: string; reason: string }[];
  /** guardrail_tripped: the guardrail that stopped the run (never what it found). */
  guardrail?: { name: string; kind: string; check: string };
}

/** One event; `seq` grows by one per event and events are never rewritten, so pollers ask "since N". */
export type RunEvent = EventBody & { seq: number; at: string };

/** `timer`: a durable wait on a workflow timer (follow-up window, sub-agent idle wait), with its deadline and how it ended. */
export type SpanKind = "run" | "iteration" | "inference" | "tool" | "sub_agent" | "approval_wait" | "timer" | "routing" | "handoff" | "plan" | "guardrail";

export interface TraceSpan {
  id: string;
  parentId: string | null;
  kind: SpanKind;
  name: string;
  startedAt: string;
  endedAt: string | null;
  status: "running" | "ok" | "error";
  tokens?: TokenUsage;
  attempts?: number;
  attributes?: Record<string, string | number | boolean>;
}

export interface TraceNode extends TraceSpan {
  children: TraceNode[];
}

export interface RunError {
  reason: FailureReason;
  message: string;
  details?: FailureDetails;
}

/** A compact view of a run, cheap to poll. */
export interface RunSummary {
  runId: string;
  rootRunId: string;
  parentRunId: string | null;
  agentName: string;
  status: RunStatus;
  iteration: number;
  usage: TokenUsage;
  output: string | null;
  /** The typed answer, when the agent has an output schema. */
  outputData?: unknown;
  /** The agent a router gave the task to. */
  routedTo?: string | null;
  error: RunError | null;
  pendingApprovals: number;
  lastEventSeq: number;
  generation: number;
  startedAt: string;
  endedAt: string | null;
}

/** A spend limit reached by a working run, as the model-call activity found it (no model was called). */
export interface SpendLimitHit {
  limitId: string;
  scope: "workspace" | "graph" | "user" | "api_key";
  /** The graph's name, the user's email, the key's name; "Workspace" for the workspace. */
  scopeLabel: string;
  period: "day" | "month";
  amountUsd: number;
  /** The priced spend of the limit's current window when it was read. */
  spentUsd: number;
  onReached: "ask" | "stop";
  /** The end of the limit's current window (ISO): the limit allows runs again then. */
  windowEnd: string;
  /** One line naming the limit, e.g. `$5.20 spent of the daily spend limit of graph "support" ($5.00)`. */
  message: string;
}
