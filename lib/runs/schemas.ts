// Browser-safe contracts of the runs feature: launch input, list filters and
// the shapes the run pages render. Server code lives in ./server.
import { z } from "zod";
import { agentNameSchema, modelIdSchema } from "../agents/schemas";
import { runIdSchema, webhookIdSchema } from "../contract/schemas";
import { imageInputsSchema } from "../attachments/schemas";
import { boundedJsonObject, boundedText, CONTEXT_MAX_BYTES } from "../http/limits";
import type { FailureDetails, FailureReason, RunEvent, RunStatus, TokenUsage, TraceSpan } from "../contract/types";
import type { PlanOutcome } from "../contract/plan";
import type { DeriveLag } from "../db/derive-lag";
import { searchQuerySchema, type SearchHit } from "../search/schemas";
import { FEEDBACK_FILTERS } from "../feedback/schemas";
import { RUN_TRIGGERS } from "./triggers";
import { labelNameSchema } from "../labels/schemas";

export const RUN_STATUSES = ["pending", "thinking", "awaiting_tool", "awaiting_approval", "completed", "failed", "cancelled"] as const satisfies readonly RunStatus[];

/** Why a run ended without its answer (the typed failures; the runs list filters by them). */
export const FAILURE_REASONS = [
  "step_limit_exceeded",
  "budget_exceeded",
  "timeout",
  "routing_exhausted",
  "validation_error",
  "handoff_depth_exceeded",
  "agent_failed",
  "plan_invalid",
  "plan_failed",
  "tool_error",
  "model_error",
  "cancelled",
  "invalid_config",
  "unauthenticated",
  "spend_limit_reached",
  "guardrail_tripped",
] as const satisfies readonly FailureReason[];

/** How a plan-and-execute run's last plan ended (the runs list filters by it). */
export const PLAN_OUTCOMES = ["completed", "partially_failed", "failed", "cancelled"] as const satisfies readonly PlanOutcome[];

/** A run's launch input, the same through the dialog's action and `POST /api/runs`; unknown keys are refused. */
export const launchRunSchema = z.strictObject({
  /** The saved agent graph to run (named as the designer saves it; the entry agent is the graph's). */
  graph: agentNameSchema,
  /** Omitted: the newest version. */
  version: z.coerce.number().int().min(1).optional(),
  task: boundedText("task", "describe the task"),
  /** Images of the task (PNG, JPEG, WebP or GIF; at most 5 of 10 MB): uploaded ids, base64 or URLs. */
  images: imageInputsSchema.optional(),
  context: boundedJsonObject("context", CONTEXT_MAX_BYTES).default({}),
  /** Overrides the entry agent's model for this run; "" keeps the graph's. */
  model: z.union([modelIdSchema, z.literal("")]).optional(),
  /** A version label (e.g. production): resolved to its version at the start, or its split's version for the split's share (lib/labels). */
  label: labelNameSchema.optional(),
}).superRefine((input, ctx) => {
  if (input.label !== undefined && input.version !== undefined) ctx.addIssue({ code: "custom", path: ["label"], message: "name a version or a label, not both" });
});

/** What the run dialog asks before it launches (`getLaunchOptionsAction`): the saved graph's versions. */
export const launchOptionsInputSchema = z.strictObject({ graph: agentNameSchema });

/** Cancel: the run, named in the action's input or in the route's path. */
export const runIdInputSchema = z.strictObject({ runId: runIdSchema });

/** A follow-up: the action's input; `POST /api/runs/:runId/messages` takes the run id from its path. */
export const followUpSchema = runIdInputSchema.extend({ content: boundedText("message", "write a message"), images: imageInputsSchema.optional() });

/** A status filter of the runs list: one status, or "active" for any state of a run still working (the overview's "still running"). */
export const RUN_STATUS_FILTERS = [...RUN_STATUSES, "active"] as const;

/** What the runs list can be ordered by: when it started (the default), how long it worked, its tree's tokens or cost. */
export const RUN_SORTS = ["started", "duration", "tokens", "cost"] as const;
export type RunSort = (typeof RUN_SORTS)[number];

/** Filters of the runs list (query string of /runs and /api/runs/list). */
export const runFiltersSchema = z.object({
  status: z.enum(RUN_STATUS_FILTERS).optional(),
  /** Runs that ended with this typed failure. */
  reason: z.enum(FAILURE_REASONS).optional(),
  /** Runs a router gave to this agent (a name no run was routed to matches nothing). */
  routedTo: agentNameSchema.optional(),
  /** Runs whose last finished plan ended so (a run that never finished a plan matches none). */
  planOutcome: z.enum(PLAN_OUTCOMES).optional(),
  graph: z.string().max(100).optional(),
  version: z.coerce.number().int().min(1).optional(),
  startedBy: z.string().max(200).optional(),
  awaitingApproval: z.enum(["1", "true"]).optional(),
  from: z.iso.datetime({ offset: true, local: true }).optional(),
  to: z.iso.datetime({ offset: true, local: true }).optional(),
  /** Full-text search over tasks, messages, tool arguments and results, and errors of the run and its sub-runs. */
  q: searchQuerySchema.optional(),
  /** Runs whose tree called this tool (the dashboard's drill-down links use it). */
  tool: z.string().trim().min(1).max(200).optional(),
  /** Runs whose tree ran a model call on this model, e.g. demo/assistant. */
  model: z.string().trim().min(1).max(200).optional(),
  /** Runs whose tree has feedback: a thumbs up, a thumbs down, any, or none at all (issue 27 §5). */
  feedback: z.enum(FEEDBACK_FILTERS).optional(),
  /** Show the runs experiments started too (hidden by default: an experiment lists its own). */
  experiments: z.enum(["1", "true"]).optional(),
  /** Only the runs this schedule started (sch_…). */
  scheduleId: z.string().regex(/^sch_[A-Za-z0-9]{8,64}$/, "expected a schedule id (sch_…)").optional(),
  /** Only the runs this inbound webhook endpoint started (whk_…). */
  webhook: webhookIdSchema.optional(),
  /** Only the runs started by this version label (lib/labels), e.g. production. */
  label: labelNameSchema.optional(),
  /** Only the runs this trigger started (lib/runs/triggers.ts; the overview's "How runs started" links here). Experiment runs then show without `experiments`. */
  trigger: z.enum(RUN_TRIGGERS).optional(),
  /** Runs this online evaluator scored (lib/online-eval); with scoreBelow / scoreAtLeast, only those its mean score is below / at least. */
  // An evaluator's name as lib/online-eval/schemas.ts spells it (that module builds on this one, so it is not imported).
  evaluator: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "expected an evaluator's name").optional(),
  /** Runs an evaluator (`evaluator`, or any) scored below this mean, 0..1. */
  scoreBelow: z.coerce.number().min(0).max(1).optional(),
  /** Runs an evaluator (`evaluator`, or any) scored at least this mean, 0..1. */
  scoreAtLeast: z.coerce.number().min(0).max(1).optional(),
  /** A built-in view: "stuck" is "stuck or burning" (thresholds below, defaults in STUCK_DEFAULTS). */
  view: z.enum(["stuck"]).optional(),
  /** Stuck: no event in the run's tree for this many minutes. */
  stuckMinutes: z.coerce.number().int().min(1).max(10_080).optional(),
  /** Burning: cost per minute since the start above this many US dollars. */
  burnPerMinute: z.coerce.number().min(0.0001).max(10_000).optional(),
  /** The order of the list: newest first unless set (lib/runs/run-sort.ts); tokens and cost are the whole tree's. */
  sort: z.enum(RUN_SORTS).optional(),
  /** With `sort`: largest first (desc, the default) or smallest first. */
  order: z.enum(["asc", "desc"]).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(25),
});
export type RunFilters = z.infer<typeof runFiltersSchema>;

/** Values the runs list's filters suggest (GET /api/runs/suggestions): saved graphs, and the models and tools some run used. */
export interface RunFilterSuggestions {
  graphs: string[];
  models: string[];
  tools: string[];
  /** The inbound webhook endpoints, by id, with their names (the webhook filter takes the id). */
  webhooks: { id: string; name: string }[];
}

/** The "stuck or burning" view's thresholds when the URL or a saved view does not set them. */
export const STUCK_DEFAULTS = { stuckMinutes: 10, burnPerMinute: 0.5 } as const;

/** Tokens and cost; cost is null when a model's price is unknown (tokens still count). */
export interface UsageCost {
  tokens: TokenUsage;
  /** US dollars; null when some tokens came from a model without a price. */
  cost: number | null;
}

export interface RunListRow {
  runId: string;
  parentRunId: string | null;
  agentName: string;
  graphName: string | null;
  version: number | null;
  /** An unsaved variant (a fork with an edited prompt or model, or a sub-run of one): the saved version it derives from; `version` is then null. */
  variantOf: number | null;
  startedBy: string | null;
  task: string;
  status: RunStatus;
  /** Temporal's view (Running, Completed, …); null when Temporal no longer has the run or is unreachable. */
  temporalStatus: string | null;
  pendingApprovals: number;
  /** How a failed or cancelled run ended (its typed reason and one-line message). */
  error: { reason: string; message: string } | null;
  /** The agent a router gave the task to; null for runs that did not route. */
  routedTo: string | null;
  /** How the run's last finished plan ended; null for runs that never finished a plan. */
  planOutcome: PlanOutcome | null;
  /** The version label the run was started by and the side of its split it drew (lib/labels); absent or null otherwise. */
  label?: RunLabelRef | null;
  startedAt: string;
  endedAt: string | null;
  self: UsageCost;
  total: UsageCost;
  subRuns: RunListRow[];
  /** Top-level runs an online evaluator scored: the mean of their evaluations' means, and each evaluator's (lib/online-eval); absent otherwise. */
  score?: RunScore | null;
  /** With a search: the tree's newest matching text (task, message, tool arguments or result, error). */
  match?: SearchHit | null;
  /** In the "stuck or burning" view: why the run is in it. */
  stuck?: string[];
  /** In that view, a tree that waits for an approver: the oldest waiting call, for its inbox link (lib/runs/stuck-words.ts). */
  waitingApproval?: WaitingApproval | null;
}

/** A run's online-evaluation score: the mean of its scored evaluations' means, with each evaluator's figure. */
export interface RunScore {
  mean: number;
  byEvaluator: { evaluator: string; meanScore: number }[];
}

/** A call a run tree waits on for a human decision. */
export interface WaitingApproval {
  approvalId: string;
  runId: string;
  toolName: string;
  requestedAt: string;
}

export interface RunListPage {
  rows: RunListRow[];
  total: number;
  page: number;
  pageSize: number;
  /** Set when Temporal's visibility could not be read (the ledger still answers). */
  temporalNote: string | null;
  /** Set when a search or a tool, model or view filter matched more trees than the list pages through. */
  matchNote?: string | null;
  /** Set when a sort by duration, tokens or cost ordered only the newest of more matching runs (RUN_SORT_CANDIDATES_MAX). */
  sortNote?: string | null;
  /**
   * Only when a search, a tool or model filter or the "stuck or burning" view narrowed the list (they
   * read the search index and facets the deriver writes after the ledger's transaction) and ledger
   * writes are still waiting to be indexed: how many and how long the oldest has waited. The list says
   * so and reads again every second while it is set; absent once the index has caught up.
   */
  indexBehind?: DeriveLag;
}

/** A finished plan's nodes by how they ended. */
export interface PlanCounts {
  completed: number;
  failed: number;
  skipped: number;
  /** Nodes stopped before they finished (a cancelled plan's). */
  cancelled: number;
}

/** What the run page's header shows. */
export interface RunHeaderData {
  runId: string;
  rootRunId: string;
  parentRunId: string | null;
  agentName: string;
  graphName: string | null;
  version: number | null;
  /** An unsaved variant (a fork with an edited prompt or model, or a sub-run of one): the saved version it derives from; `version` is then null. */
  variantOf: number | null;
  startedBy: string | null;
  task: string;
  context: Record<string, unknown>;
  status: RunStatus;
  iteration: number;
  pendingApprovals: number;
  output: string | null;
  /** The typed answer of an agent with an output schema (wrapped, since the answer itself may be null); null when there is none. */
  typedOutput: { data: unknown } | null;
  /** The agent a router gave the task to. */
  routedTo: string | null;
  /** How the run's last finished plan ended; null for runs that never finished a plan. */
  planOutcome: PlanOutcome | null;
  /** That plan's nodes by how they ended (from its plan_finished event); null with no outcome. */
  planCounts: PlanCounts | null;
  /** `details`: what a validation or routing failure carries (schema errors and the last answer, or the agents tried). */
  error: { reason: string; message: string; details?: FailureDetails } | null;
  startedAt: string;
  /** When the run last answered (or failed, or was cancelled): its work's end, not the end of the follow-up window after it. */
  endedAt: string | null;
  /** A root run that answered and waits for a follow-up: until when (ISO); null otherwise. */
  followUpUntil: string | null;
  lastEventSeq: number;
  self: UsageCost;
  total: UsageCost;
  /** Runs of this subtree that wait for a decision, themselves or through a run below them (the plan DAG's "waiting for approval"). */
  awaitingApprovalRunIds: string[];
  /** The schedule that started the run (its name null once deleted); absent for runs started otherwise. */
  schedule?: { id: string; name: string | null };
  /** The inbound webhook endpoint whose delivery started the run (its name null once deleted); absent for runs started otherwise. */
  webhook?: { id: string; name: string | null };
  /** The version label the run was started by, and the side of the label's split it drew; absent for runs started otherwise. */
  label?: RunLabelRef;
}

/** A run's version label: its name and the side of a split it drew ("base": the label's version, "split": the split's). */
export interface RunLabelRef {
  name: string;
  variant: "base" | "split" | null;
}

/**
 * A span as the trace view holds it (lib/runs/span-rows.ts): the ledger span
 * with its times in ms since the epoch (the timeline computes with them, on
 * 200,000 spans at a time), its run and the cost of a model call.
 */
export type TraceSpanView = Omit<TraceSpan, "startedAt" | "endedAt"> & { runId: string; startMs: number; endMs: number | null; cost?: number | null };

/** What the live tail returns on each poll. */
export interface RunTail {
  events: RunEvent[];
  nextSince: number;
  hasMore: boolean;
  /** Spans started or changed since the cursor the client sent. */
  spans: TraceSpanView[];
  spanCursor: string | null;
  header: RunHeaderData;
}

export function isTerminal(status: string): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}
