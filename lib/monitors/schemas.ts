// Browser-safe contract of monitors and alerts (issue 26 §1): a monitor is a
// threshold on one dashboard series over a trailing window; the worker's
// evaluator fires an alert when the series crosses it and resolves the alert
// when it recovers. The page, `/api/monitors` and the client share these schemas.
import { z } from "zod";
import { METRIC_SERIES, METRIC_STATS, metricFiltersSchema, type MetricFilters, type MetricKind, type MetricSeriesDef, type MetricStat, type MetricUnit } from "../metrics/schemas";

/**
 * Series only monitors watch, read from the live tables rather than the rollups:
 * how long the oldest pending approval has waited ("approvals waiting > 30 min").
 */
export const MONITOR_ONLY_SERIES = {
  approvals_oldest_wait: { label: "Oldest pending approval's wait", unit: "ms", kind: "gauge" },
  /** The highest share of any spend limit spent in its current window (1 = reached; lib/spend-limits); a graph filter reads that graph's limits only. */
  spend_limit_used: { label: "Spend against its limit (highest share of any spend limit)", unit: "ratio", kind: "gauge" },
  /** The mean score an online evaluator (named by the monitor's label) gave in the window (lib/online-eval); null when it scored none. */
  evaluator_score: { label: "Mean score of an online evaluator", unit: "ratio", kind: "gauge", labelMeaning: "evaluator" },
} as const satisfies Record<string, MetricSeriesDef>;

export const MONITOR_SERIES: Record<MonitorSeriesName, MetricSeriesDef> = { ...METRIC_SERIES, ...MONITOR_ONLY_SERIES };
export type MonitorSeriesName = keyof typeof METRIC_SERIES | keyof typeof MONITOR_ONLY_SERIES;
export const MONITOR_SERIES_NAMES = [...Object.keys(METRIC_SERIES), ...Object.keys(MONITOR_ONLY_SERIES)] as [MonitorSeriesName, ...MonitorSeriesName[]];

export const MONITOR_COMPARATORS = ["gt", "gte", "lt", "lte"] as const;
export type MonitorComparator = (typeof MONITOR_COMPARATORS)[number];
export const COMPARATOR_SYMBOLS: Record<MonitorComparator, string> = { gt: ">", gte: "≥", lt: "<", lte: "≤" };

/** Which stats make sense for each kind of series; the first is the series' natural stat (used when none is given). */
export const STATS_BY_KIND: Record<MetricKind, readonly MetricStat[]> = {
  counter: ["count", "rate"],
  sum: ["sum", "rate"],
  latency: ["p95", "p50", "p99", "count"],
  ratio: ["rate"],
  gauge: [],
  total: ["count", "rate"],
};

/** A window of up to 30 days: the evaluator reads it from the hourly rollups at worst. */
export const MONITOR_MAX_WINDOW_MINUTES = 30 * 24 * 60;

/**
 * How many monitors one person, and the whole workspace, may keep: every tick evaluates every enabled monitor, so
 * an unbounded list is a way for one builder to slow the evaluator for everyone (issue 36 §3).
 */
export const MONITOR_LIMITS = { perUser: 50, perWorkspace: 500 } as const;

const monitorName = z.string().trim().min(1, "give the monitor a name").max(100);
export const monitorIdSchema = z.string().regex(/^mon_[A-Za-z0-9_-]{8,64}$/, "expected a monitor id (mon_…)");

/** The fields that say when a monitor fires (shared by create, the merged update and the preview). */
const conditionShape = {
  series: z.enum(MONITOR_SERIES_NAMES),
  /** Omitted or null: the series' natural stat. */
  stat: z.enum(METRIC_STATS).nullable().optional(),
  /** Only this label of the series (a failure reason, a status, a routing target); omitted or null: all labels. */
  label: z.string().trim().min(1).max(200).nullable().optional(),
  comparator: z.enum(MONITOR_COMPARATORS),
  /** In the series' unit: a ratio as 0..1, a latency in ms, a cost in US dollars. */
  threshold: z.number().finite(),
  windowMinutes: z.number().int().min(1).max(MONITOR_MAX_WINDOW_MINUTES),
  filters: metricFiltersSchema.default({}),
};

type ConditionLike = { series: MonitorSeriesName; stat?: MetricStat | null; label?: string | null; filters?: MetricFilters };

/** The stat must fit the series' kind (no p95 of a counter); a gauge has none and no label. */
function checkStat(condition: ConditionLike, ctx: z.RefinementCtx): void {
  const kind = MONITOR_SERIES[condition.series].kind;
  const allowed = STATS_BY_KIND[kind];
  if (condition.stat != null && !allowed.includes(condition.stat)) {
    const message = allowed.length ? `${condition.series} is read as ${allowed.join(", ")}` : `${condition.series} takes no stat`;
    ctx.addIssue({ code: "custom", path: ["stat"], message });
  }
  if (condition.label != null && !MONITOR_SERIES[condition.series].labelMeaning) ctx.addIssue({ code: "custom", path: ["label"], message: `${condition.series} has no labels` });
  // The oldest wait is read from the approvals themselves, which know their tool but not the run's graph or starter.
  if (condition.series === "approvals_oldest_wait") {
    for (const key of ["graph", "version", "model", "startedBy"] as const) {
      if (condition.filters?.[key] !== undefined) ctx.addIssue({ code: "custom", path: ["filters", key], message: "approvals_oldest_wait is filtered by tool only" });
    }
  }
  // An evaluation knows its run's graph and version only; the evaluator is the series' label, and without one there is no score to read.
  if (condition.series === "evaluator_score") {
    if (condition.label == null) ctx.addIssue({ code: "custom", path: ["label"], message: "name the evaluator whose mean score to watch" });
    for (const key of ["model", "startedBy", "tool"] as const) {
      if (condition.filters?.[key] !== undefined) ctx.addIssue({ code: "custom", path: ["filters", key], message: "evaluator_score is filtered by graph and version only" });
    }
  }
  // Spend limits belong to scopes, not to runs' other facets: a graph's limits are the only narrowing.
  if (condition.series === "spend_limit_used") {
    for (const key of ["version", "model", "startedBy", "tool"] as const) {
      if (condition.filters?.[key] !== undefined) ctx.addIssue({ code: "custom", path: ["filters", key], message: "spend_limit_used is filtered by graph only" });
    }
  }
}

export const monitorConditionSchema = z.strictObject(conditionShape).superRefine(checkStat);
export type MonitorCondition = z.output<typeof monitorConditionSchema>;

export const monitorCreateSchema = z
  .strictObject({ name: monitorName, ...conditionShape, enabled: z.boolean().default(true) })
  .superRefine(checkStat);
export type MonitorCreateInput = z.input<typeof monitorCreateSchema>;

/** A change: any field of a monitor; the merged result is checked as a whole (lib/monitors/server/store.ts). */
export const monitorPatchSchema = z
  .strictObject({
    name: monitorName.optional(),
    series: conditionShape.series.optional(),
    stat: conditionShape.stat,
    label: conditionShape.label,
    comparator: conditionShape.comparator.optional(),
    threshold: conditionShape.threshold.optional(),
    windowMinutes: conditionShape.windowMinutes.optional(),
    filters: metricFiltersSchema.optional(),
    enabled: z.boolean().optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, { message: "change at least one field" });
export type MonitorPatch = z.input<typeof monitorPatchSchema>;

export const updateMonitorInput = z.strictObject({ id: monitorIdSchema, patch: monitorPatchSchema });
export const monitorRefInput = z.strictObject({ id: monitorIdSchema });

/** `GET /api/monitors/preview`: what the condition's series reads now (query string; numbers arrive as text). */
export const monitorPreviewQuerySchema = z
  .strictObject({
    series: conditionShape.series,
    stat: z.enum(METRIC_STATS).optional(),
    label: z.string().trim().min(1).max(200).optional(),
    windowMinutes: z.coerce.number().int().min(1).max(MONITOR_MAX_WINDOW_MINUTES),
    graph: metricFiltersSchema.shape.graph,
    version: metricFiltersSchema.shape.version,
    model: metricFiltersSchema.shape.model,
    tool: metricFiltersSchema.shape.tool,
    startedBy: metricFiltersSchema.shape.startedBy,
  })
  .transform(({ series, stat, label, windowMinutes, ...filters }) => ({ series, stat, label, windowMinutes, filters }))
  .superRefine(checkStat);
export type MonitorPreviewQuery = z.output<typeof monitorPreviewQuerySchema>;

export const ALERT_STATES = ["firing", "resolved"] as const;
export type AlertState = (typeof ALERT_STATES)[number];
export const ALERT_RESOLVED_REASONS = ["recovered", "monitor_disabled", "monitor_deleted"] as const;
export type AlertResolvedReason = (typeof ALERT_RESOLVED_REASONS)[number];

/** `GET /api/monitors/alerts`: newest first; `state` narrows to firing or resolved ones; `monitorId` to one monitor. */
export const alertListQuerySchema = z.strictObject({
  state: z.enum(ALERT_STATES).optional(),
  monitorId: monitorIdSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AlertListQuery = z.input<typeof alertListQuerySchema>;

/** The condition as stored on an alert when it fired (the monitor may change or go later). */
export interface AlertCondition {
  series: MonitorSeriesName;
  stat: MetricStat | null;
  label: string | null;
  comparator: MonitorComparator;
  threshold: number;
  windowMinutes: number;
  filters: MetricFilters;
}

export interface AlertView {
  id: string;
  /** Null once the monitor was deleted. */
  monitorId: string | null;
  monitorName: string;
  state: AlertState;
  condition: AlertCondition;
  valueAtFire: number;
  /** The series' value at the last evaluation while firing, or when it resolved (null: nothing to measure). */
  lastValue: number | null;
  firedAt: string;
  resolvedAt: string | null;
  resolvedReason: AlertResolvedReason | null;
  /** When the webhook accepted each event (null: not yet, or no webhook configured). */
  notified: { fired: string | null; resolved: string | null };
  /** The runs list filtered to what the alert watched, over its episode. */
  runsHref: string;
}

export interface MonitorView extends AlertCondition {
  id: string;
  name: string;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  lastValue: number | null;
  lastEvaluatedAt: string | null;
  /** The open alert, when the monitor fires now. */
  firing: AlertView | null;
}

/** The series' unit, for formatting a value or a threshold. */
export function seriesUnit(series: MonitorSeriesName): MetricUnit {
  return MONITOR_SERIES[series].unit;
}
