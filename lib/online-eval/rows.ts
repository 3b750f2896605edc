// Online evaluation rows as the web server and the worker read them: the stored
// JSON (filters, checks, expectations, the dataset rule) is parsed back through
// the schemas that wrote it, so a view or a scorer never gets an unchecked shape.
// No `server-only`: the worker reads evaluators through it.
import { z } from "zod";
import type { OnlineEvaluation, OnlineEvaluationBackfill, OnlineEvaluationScore, OnlineEvaluator } from "../db/generated/sqlite/client";
import {
  EVALUATION_STATUSES,
  EVALUATOR_TARGETS,
  datasetRuleSchema,
  evaluatorChecksSchema,
  evaluatorExpectationsSchema,
  evaluatorFiltersSchema,
  type BackfillView,
  type DatasetRule,
  type EvaluationStatus,
  type EvaluationView,
  type EvaluatorCheck,
  type EvaluatorExpectations,
  type EvaluatorFilters,
  type EvaluatorTarget,
  type EvaluatorView,
} from "./schemas";

export type EvaluatorRow = OnlineEvaluator;
export type EvaluationRow = OnlineEvaluation;
export type EvaluationScoreRow = OnlineEvaluationScore;
export type BackfillRow = OnlineEvaluationBackfill;

/** An evaluator's configuration, parsed. */
export interface EvaluatorConfig {
  id: string;
  name: string;
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
  activeFrom: Date;
  actorId: string | null;
}

function parsed<T>(schema: z.ZodType<T>, text: string | null, what: string, id: string): T {
  const result = schema.safeParse(text === null ? null : JSON.parse(text));
  if (!result.success) throw new Error(`evaluator ${id}: stored ${what} no longer parse (${result.error.issues[0]?.message ?? "invalid"})`);
  return result.data;
}

export function evaluatorConfigOf(row: EvaluatorRow): EvaluatorConfig {
  return {
    id: row.id,
    name: row.name,
    graph: row.graph,
    version: row.version,
    label: row.label,
    filters: parsed(evaluatorFiltersSchema, row.filters, "filters", row.id),
    target: z.enum(EVALUATOR_TARGETS).parse(row.target),
    checks: parsed(evaluatorChecksSchema, row.checks, "checks", row.id),
    expectations: parsed(evaluatorExpectationsSchema, row.expectations, "expectations", row.id),
    samplingRate: row.samplingRate,
    dailySpendCapUsd: row.dailySpendCapUsd,
    delaySeconds: row.delaySeconds,
    datasetRule: parsed(datasetRuleSchema.nullable(), row.datasetRule, "dataset rule", row.id),
    enabled: row.enabled,
    activeFrom: row.activeFrom,
    actorId: row.updatedById ?? row.createdById,
  };
}

export type EvaluatorStats = EvaluatorView["stats"];

export const emptyStatusCounts = (): Record<EvaluationStatus, number> => Object.fromEntries(EVALUATION_STATUSES.map((status) => [status, 0])) as Record<EvaluationStatus, number>;

export function toEvaluatorView(row: EvaluatorRow, stats: EvaluatorStats): EvaluatorView {
  const config = evaluatorConfigOf(row);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    graph: row.graph,
    version: row.version,
    label: row.label,
    filters: config.filters,
    target: config.target,
    checks: config.checks,
    expectations: config.expectations,
    samplingRate: row.samplingRate,
    dailySpendCapUsd: row.dailySpendCapUsd,
    delaySeconds: row.delaySeconds,
    datasetRule: config.datasetRule,
    enabled: row.enabled,
    activeFrom: row.activeFrom.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    stats,
  };
}

const statusOf = (status: string): EvaluationStatus => z.enum(EVALUATION_STATUSES).parse(status);

export function toEvaluationView(row: EvaluationRow, evaluatorName: string, scores: readonly EvaluationScoreRow[]): EvaluationView {
  return {
    evaluatorId: row.evaluatorId,
    evaluator: evaluatorName,
    runId: row.runId,
    status: statusOf(row.status),
    source: row.source,
    meanScore: row.meanScore,
    costUsd: row.costUsd,
    error: row.error,
    evaluatedAt: row.evaluatedAt?.toISOString() ?? null,
    scores: scores.map((score) => ({ scorer: score.scorer, value: score.value, pass: score.pass, detail: score.detail, costUsd: score.costUsd })),
  };
}

export function toBackfillView(row: BackfillRow): BackfillView {
  return {
    id: row.id,
    evaluatorId: row.evaluatorId,
    from: row.from.toISOString(),
    to: row.to.toISOString(),
    status: z.enum(["running", "done", "failed"]).parse(row.status),
    claimed: row.claimed,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** The start of the UTC day `at` falls in: the daily spend cap's period. */
export function utcDayStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}
