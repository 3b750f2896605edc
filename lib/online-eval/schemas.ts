// Online evaluation (issue 40 §2): evaluators that score live runs of a graph
// after they end, off the run's path. This module is the contract shared by the
// engine (worker/workflows/online-evaluation*.ts, lib/online-eval/server), the
// HTTP API and client, and the pages: browser-safe, no server imports.
import { z } from "zod";
import { agentNameSchema } from "../agents/schemas";
import { guardrailCheckSchema } from "../guardrails/schemas";
import { labelNameSchema } from "../labels/schemas";
import { scorerConfigSchema, scorerName } from "../experiments/scoring/types";
import { RUN_TRIGGERS } from "../runs/triggers";

/** An evaluator's id: `oev_` and a random suffix (made by the server). */
export const evaluatorIdSchema = z.string().regex(/^oev_[A-Za-z0-9]{8,64}$/, "expected an evaluator id (oev_…)");
/** A backfill's id: `obf_` and a random suffix. */
export const backfillIdSchema = z.string().regex(/^obf_[A-Za-z0-9]{8,64}$/, "expected a backfill id (obf_…)");

export const evaluatorNameSchema = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "use 1–64 lowercase letters, digits, _ or -, starting with a letter or digit");

/**
 * What one evaluator scores:
 * - `run`: each root run once it has ended (completed, failed or cancelled) and its delay has passed; a run still
 *   open for follow-ups is scored on the answer it had when it ended its last turn.
 * - `conversation`: the whole run tree with its follow-ups, once the conversation is closed (its workflow ended:
 *   the follow-up window passed, or it was cancelled), plus the delay.
 */
export const EVALUATOR_TARGETS = ["run", "conversation"] as const;
export type EvaluatorTarget = (typeof EVALUATOR_TARGETS)[number];

/** The run statuses an evaluator may be limited to (default: every ended run). */
export const EVALUATED_STATUSES = ["completed", "failed", "cancelled"] as const;

/**
 * One check of an evaluator: a scorer the experiments have (lib/experiments/scoring), or a guardrail check
 * (lib/guardrails) on the run's task (`on: "input"`) or final answer (`on: "output"`): 1 when it passes, 0 when it
 * trips. The judge's model defaults to the offline demo judge.
 */
export const evaluatorCheckSchema = z.discriminatedUnion("source", [
  z.strictObject({ source: z.literal("scorer"), scorer: scorerConfigSchema }),
  z.strictObject({
    source: z.literal("guardrail"),
    /** The score's name: `guardrail:<name>`. */
    name: evaluatorNameSchema,
    on: z.enum(["input", "output"]),
    check: guardrailCheckSchema,
  }),
]);
export type EvaluatorCheck = z.infer<typeof evaluatorCheckSchema>;

/** The stable name a check's scores carry: the scorer's name (lib/experiments scorerName), or `guardrail:<name>`. */
export function evaluatorCheckName(check: EvaluatorCheck): string {
  return check.source === "scorer" ? scorerName(check.scorer) : `guardrail:${check.name}`;
}

export const MAX_EVALUATOR_CHECKS = 10;

export const evaluatorChecksSchema = z
  .array(evaluatorCheckSchema)
  .min(1, "give at least one check")
  .max(MAX_EVALUATOR_CHECKS, `at most ${MAX_EVALUATOR_CHECKS} checks`)
  .superRefine((checks, ctx) => {
    const seen = new Set<string>();
    checks.forEach((check, index) => {
      const name = evaluatorCheckName(check);
      if (seen.has(name)) ctx.addIssue({ code: "custom", path: [index], message: `check "${name}" is listed twice` });
      seen.add(name);
    });
  });

/**
 * Which runs of the graph are evaluated, on the runs list's own fields (lib/runs/schemas.ts runFiltersSchema).
 * Experiment runs are never evaluated online (an experiment scores its own).
 */
export const evaluatorFiltersSchema = z.strictObject({
  statuses: z.array(z.enum(EVALUATED_STATUSES)).min(1).max(3).optional(),
  startedBy: z.string().trim().min(1).max(200).optional(),
  trigger: z.enum(RUN_TRIGGERS).optional(),
  /** Runs whose tree ran a model call on this model. */
  model: z.string().trim().min(1).max(200).optional(),
  /** Runs whose tree called this tool. */
  tool: z.string().trim().min(1).max(200).optional(),
});
export type EvaluatorFilters = z.infer<typeof evaluatorFiltersSchema>;

/**
 * What a live run is compared with where a scorer needs an expectation (exact, contains, json_field, routing…).
 * Without one such a scorer answers "no expectation" (pass null), which is not a low score.
 */
export const evaluatorExpectationsSchema = z.strictObject({
  output: z.string().max(10_000).optional(),
  outputData: z.unknown().optional(),
  routing: z.strictObject({ target: agentNameSchema, fallback: z.boolean().optional() }).optional(),
});
export type EvaluatorExpectations = z.infer<typeof evaluatorExpectationsSchema>;

/** Low scores add the run to a dataset by rule: a run whose mean score is below `below` becomes an item of `dataset`. */
export const datasetRuleSchema = z.strictObject({
  dataset: z.string().trim().min(1).max(100),
  below: z.number().min(0).max(1),
});
export type DatasetRule = z.infer<typeof datasetRuleSchema>;

/** The longest delay: a week (feedback may arrive after the run; the evaluation waits for it). */
export const MAX_DELAY_SECONDS = 7 * 24 * 3600;

const evaluatorFields = {
  name: evaluatorNameSchema,
  description: z.string().max(2_000).default(""),
  graph: agentNameSchema,
  /** Only runs of this saved version (null: any). */
  version: z.number().int().min(1).nullable().default(null),
  /** Only runs started by this version label (null: any). */
  label: labelNameSchema.nullable().default(null),
  filters: evaluatorFiltersSchema.default({}),
  target: z.enum(EVALUATOR_TARGETS).default("run"),
  checks: evaluatorChecksSchema,
  expectations: evaluatorExpectationsSchema.default({}),
  /** The share of matching runs scored, 0..1; which runs is decided from the run id, so a retry decides the same. */
  samplingRate: z.number().min(0).max(1).default(1),
  /** US dollars a day (UTC) the judge calls of this evaluator may cost; runs past it are skipped, recorded as such. Null: no cap. */
  dailySpendCapUsd: z.number().min(0).max(100_000).nullable().default(null),
  /** Seconds after a run ends (or its conversation closes) before it is scored. */
  delaySeconds: z.number().int().min(0).max(MAX_DELAY_SECONDS).default(0),
  datasetRule: datasetRuleSchema.nullable().default(null),
  enabled: z.boolean().default(true),
};

/**
 * How many evaluators one person, and the whole workspace, may keep: each enabled evaluator is a workflow that reads
 * the ledger every few seconds, so an unbounded list is a way for one builder to load the worker and the database for
 * everyone (as monitors are bounded: lib/monitors/schemas.ts MONITOR_LIMITS).
 */
export const EVALUATOR_LIMITS = { perUser: 20, perWorkspace: 100 } as const;

/** POST /api/evaluators, the createEvaluator action and ZapClient.createEvaluator. */
export const createEvaluatorInput = z.strictObject(evaluatorFields);
export type CreateEvaluatorInput = z.input<typeof createEvaluatorInput>;

/** PATCH /api/evaluators/:id: any field but the name; the graph may not change either (make another evaluator). */
export const updateEvaluatorInput = z.strictObject({
  id: evaluatorIdSchema,
  description: evaluatorFields.description.optional(),
  version: z.number().int().min(1).nullable().optional(),
  label: labelNameSchema.nullable().optional(),
  filters: evaluatorFiltersSchema.optional(),
  target: z.enum(EVALUATOR_TARGETS).optional(),
  checks: evaluatorChecksSchema.optional(),
  expectations: evaluatorExpectationsSchema.optional(),
  samplingRate: z.number().min(0).max(1).optional(),
  dailySpendCapUsd: z.number().min(0).max(100_000).nullable().optional(),
  delaySeconds: z.number().int().min(0).max(MAX_DELAY_SECONDS).optional(),
  datasetRule: datasetRuleSchema.nullable().optional(),
  enabled: z.boolean().optional(),
});
export type UpdateEvaluatorInput = z.input<typeof updateEvaluatorInput>;

export const evaluatorIdInput = z.strictObject({ id: evaluatorIdSchema });

/** POST /api/evaluators/:id/backfill: score the matching runs that ended in [from, to) — at most 31 days, in the past. */
export const backfillInput = z
  .strictObject({ id: evaluatorIdSchema, from: z.iso.datetime({ offset: true }), to: z.iso.datetime({ offset: true }) })
  .superRefine((input, ctx) => {
    const from = Date.parse(input.from);
    const to = Date.parse(input.to);
    if (!(from < to)) ctx.addIssue({ code: "custom", path: ["to"], message: "to must be after from" });
    if (to - from > 31 * 24 * 3600 * 1000) ctx.addIssue({ code: "custom", path: ["to"], message: "a backfill covers at most 31 days" });
  });
export type BackfillInput = z.input<typeof backfillInput>;

/** One evaluator's decision on one run. Claimed exactly once per (evaluator, root run); never re-scored. */
export const EVALUATION_STATUSES = ["pending", "scored", "skipped_sampling", "skipped_cap", "failed"] as const;
export type EvaluationStatus = (typeof EVALUATION_STATUSES)[number];

/** One check's score of one run: value 0..1; pass null when the check could not decide (no expectation). */
export interface EvaluationScoreView {
  scorer: string;
  value: number;
  pass: boolean | null;
  detail: string;
  costUsd: number;
}

export interface EvaluationView {
  evaluatorId: string;
  evaluator: string;
  runId: string;
  status: EvaluationStatus;
  /** "live", or the backfill (obf_…) that claimed it. */
  source: string;
  /** Mean of the scores that decided (pass not null); null when none did. */
  meanScore: number | null;
  costUsd: number;
  error: string | null;
  evaluatedAt: string | null;
  scores: EvaluationScoreView[];
}

export interface EvaluatorView {
  id: string;
  name: string;
  description: string;
  graph: string;
  version: number | null;
  label: string | null;
  filters: EvaluatorFilters;
  target: EvaluatorTarget;
  checks: EvaluatorCheck[];
  expectations: EvaluatorExpectations;
  samplingRate: number;
  dailySpendCapUsd: number | null;
  delaySeconds: number;
  datasetRule: DatasetRule | null;
  enabled: boolean;
  /** Runs that ended before this are scored only by a backfill. */
  activeFrom: string;
  createdAt: string;
  updatedAt: string;
  /** Today's (UTC) judge spend, and counts of the last 24 h by status; mean of the scored runs' means (null: none). */
  stats: { spentTodayUsd: number; last24h: Record<EvaluationStatus, number>; meanScore24h: number | null };
}

export interface BackfillView {
  id: string;
  evaluatorId: string;
  from: string;
  to: string;
  status: "running" | "done" | "failed";
  /** Runs claimed so far (each scored once, by this backfill or before it). */
  claimed: number;
  createdAt: string;
  finishedAt: string | null;
}

/** The runs list's score filter (lib/runs/schemas.ts): runs an evaluator scored below / at least a value. */
export const scoreFilterSchema = z.strictObject({
  evaluator: evaluatorNameSchema,
  below: z.coerce.number().min(0).max(1).optional(),
  atLeast: z.coerce.number().min(0).max(1).optional(),
});

/** A monitor-only series (lib/monitors/series.ts): the mean score an evaluator (the monitor's label) gave in the window. */
export const EVALUATOR_SCORE_SERIES = "evaluator_score" as const;

/**
 * Whether a run is in an evaluator's sample: a pure function of the two ids, so every replay, retry and backfill
 * decides the same. FNV-1a of "<evaluatorId>:<runId>" mapped to [0, 1).
 */
export function inSample(evaluatorId: string, runId: string, rate: number): boolean {
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  let hash = 0x811c9dc5;
  const text = `${evaluatorId}:${runId}`;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash / 0x1_0000_0000 < rate;
}
