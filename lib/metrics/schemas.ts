// Browser-safe contract of the metrics feature: which series exist, the query
// the dashboard (and `GET /api/metrics`, and the client's `metrics()`) sends,
// and the response it renders. Aggregates are read from rollup tables the
// ledger maintains (lib/metrics/server), never by loading runs.
import { z } from "zod";
import { modelIdSchema } from "../agents/schemas";
import type { DeriveLag } from "../db/derive-lag";

export type MetricUnit = "count" | "ms" | "tokens" | "usd" | "ratio";

/**
 * How a series is stored and read:
 * - `counter`: events counted per bucket (value = count in the step);
 * - `sum`: an amount summed per bucket (tokens, cost);
 * - `latency`: durations kept as log-spaced histogram bins, read as p50/p95/p99 (and count);
 * - `ratio`: computed from two counters at read time (never stored);
 * - `gauge`: the state now (pending approvals), read from the live tables, not the rollups;
 * - `total`: counters added up when read, each part a line of its own (runs started, by where they are now).
 */
export type MetricKind = "counter" | "sum" | "latency" | "ratio" | "gauge" | "total";

/** What a breakdown or filter can split a series by; `label` is the series' own label (reason, status, target, outcome). */
export type MetricDimension = "graph" | "version" | "model" | "tool" | "starter" | "label";

export interface MetricSeriesDef {
  label: string;
  unit: MetricUnit;
  kind: MetricKind;
  /** What the series' `label` holds, when it has one (e.g. "failure reason"). */
  labelMeaning?: string;
  /** Dimensions recorded for this series beyond graph, version and starter (which every series has). */
  dimensions?: readonly ("model" | "tool")[];
  /** Runs-list filter a bar of this series drills down to (status / reason / routedTo / planOutcome, or the status a line's key names), when one exists. */
  drillDown?: "status:completed" | "status:failed" | "status:cancelled" | "status:active" | "state" | "reason" | "routedTo" | "planOutcome";
  /** The bar counts top-level runs by when they started, as the runs list filters, so its drill-down lists exactly those runs. */
  byStart?: boolean;
}

/**
 * Every series the dashboard charts and monitors can watch (issue 26 §1).
 *
 * Runs are counted two ways. The `started_*` series count each top-level run
 * once, in the minute it started (the run's row, as the runs list filters),
 * under where it is now: a run that answers moves from still running to
 * completed, a follow-up moves it back, a cancel after the answer moves it to
 * cancelled. Their sum is the runs started, so the overview's tiles add up and
 * a bar lists exactly its runs. The `runs_*` event series count what happened
 * when it happened (a run that ends is counted in the minute it ended), for
 * monitors that watch "failures in the last 15 minutes".
 */
export const METRIC_SERIES = {
  /** Top-level runs by when they started (each once, whatever happened since); the parts are the started_* series. */
  runs_by_state: { label: "Runs started, by where they are now", unit: "count", kind: "total", labelMeaning: "where the run is now (completed, failed, cancelled, running)", drillDown: "state", byStart: true },
  started_completed: { label: "Runs started that completed", unit: "count", kind: "counter", drillDown: "status:completed", byStart: true },
  started_failed: { label: "Runs started that failed", unit: "count", kind: "counter", labelMeaning: "failure reason", drillDown: "reason", byStart: true },
  started_cancelled: { label: "Runs started that were cancelled", unit: "count", kind: "counter", drillDown: "status:cancelled", byStart: true },
  started_running: { label: "Runs started still running", unit: "count", kind: "counter", drillDown: "status:active", byStart: true },
  /** completed / (completed + failed + cancelled) of the runs started in the step that have ended. */
  success_rate: { label: "Success rate", unit: "ratio", kind: "ratio", byStart: true },
  runs_started: { label: "Runs started", unit: "count", kind: "counter" },
  runs_completed: { label: "Runs completed", unit: "count", kind: "counter", drillDown: "status:completed" },
  runs_failed: { label: "Runs failed", unit: "count", kind: "counter", labelMeaning: "failure reason", drillDown: "reason" },
  runs_cancelled: { label: "Runs cancelled", unit: "count", kind: "counter", drillDown: "status:cancelled" },
  /** Root and sub-runs alike: from run_started to the run's end. */
  run_latency: { label: "Run latency", unit: "ms", kind: "latency" },
  model_latency: { label: "Model call latency", unit: "ms", kind: "latency", dimensions: ["model"] },
  tool_latency: { label: "Tool call latency", unit: "ms", kind: "latency", labelMeaning: "outcome (ok, error, rejected)", dimensions: ["tool"] },
  tokens_in: { label: "Input tokens", unit: "tokens", kind: "sum", dimensions: ["model"] },
  tokens_out: { label: "Output tokens", unit: "tokens", kind: "sum", dimensions: ["model"] },
  /** US dollars at lib/runs/pricing.ts prices; calls of models without a price add nothing (their tokens still count). */
  cost: { label: "Cost", unit: "usd", kind: "sum", dimensions: ["model"] },
  /** Model calls of a model without a price: their cost is unknown, so a cost beside them is "at least", never "$0". */
  unpriced_calls: { label: "Model calls without a price", unit: "count", kind: "counter", dimensions: ["model"] },
  approvals_requested: { label: "Approvals requested", unit: "count", kind: "counter", labelMeaning: "kind (tool, budget, plan)", dimensions: ["tool"] },
  approvals_decided: { label: "Approvals decided", unit: "count", kind: "counter", labelMeaning: "status (approved, rejected, expired)", dimensions: ["tool"] },
  /** From the request to the decision. */
  approval_wait: { label: "Time to decide", unit: "ms", kind: "latency", dimensions: ["tool"] },
  /** Approvals waiting now (not bucketed; `totals.approvals_pending` and `pendingApprovals`). */
  approvals_pending: { label: "Approvals pending now", unit: "count", kind: "gauge" },
  routing_decisions: { label: "Routing decisions", unit: "count", kind: "counter", labelMeaning: "target agent", drillDown: "routedTo" },
  /** Decisions whose confidence was below the threshold, so the fallback took the task. */
  routing_fallbacks: { label: "Routing fallbacks", unit: "count", kind: "counter", labelMeaning: "target agent" },
  /** routing_fallbacks / routing_decisions. */
  routing_fallback_rate: { label: "Fallback rate", unit: "ratio", kind: "ratio" },
  routing_exhausted: { label: "Routing exhausted", unit: "count", kind: "counter", drillDown: "reason" },
  /** output_invalid events that asked the model to repair its typed answer. */
  answers_repaired: { label: "Answers that needed repair", unit: "count", kind: "counter" },
  validation_errors: { label: "Validation errors", unit: "count", kind: "counter", drillDown: "reason" },
  plan_outcomes: { label: "Plan outcomes", unit: "count", kind: "counter", labelMeaning: "outcome (completed, partially_failed, failed, cancelled)", drillDown: "planOutcome" },
  plan_node_failures: { label: "Plan node failures", unit: "count", kind: "counter" },
  budget_asks: { label: "Budget asks", unit: "count", kind: "counter", labelMeaning: "decision (requested, granted, refused)" },
  /** Guardrail checks that tripped (whatever their action: block, mask, rewrite, inbox or log), by guardrail. */
  guardrail_trips: { label: "Guardrail trips", unit: "count", kind: "counter", labelMeaning: "guardrail", dimensions: ["tool"] },
} as const satisfies Record<string, MetricSeriesDef>;

export type MetricSeriesName = keyof typeof METRIC_SERIES;
export const METRIC_SERIES_NAMES = Object.keys(METRIC_SERIES) as [MetricSeriesName, ...MetricSeriesName[]];

/** Series that are stored in the rollups (ratios and gauges are computed when read). */
export type StoredSeriesName = { [K in MetricSeriesName]: (typeof METRIC_SERIES)[K]["kind"] extends "ratio" | "gauge" | "total" ? never : K }[MetricSeriesName];

/** Where a top-level run is now, as the started_* series count it (the runs list's statuses, the working ones as one). */
export const RUN_STATES = ["completed", "failed", "cancelled", "running"] as const;
export type StartedState = (typeof RUN_STATES)[number];
/** The stored series of each state. */
export const STARTED_SERIES = { completed: "started_completed", failed: "started_failed", cancelled: "started_cancelled", running: "started_running" } as const satisfies Record<StartedState, StoredSeriesName>;

export const METRIC_RANGES = ["1h", "24h", "7d", "30d", "custom"] as const;
export type MetricRange = (typeof METRIC_RANGES)[number];
export const METRIC_BREAKDOWNS = ["none", "graph", "version", "model", "tool", "starter", "label"] as const;
export type MetricBreakdown = (typeof METRIC_BREAKDOWNS)[number];
export const METRIC_STATS = ["count", "sum", "rate", "p50", "p95", "p99"] as const;
export type MetricStat = (typeof METRIC_STATS)[number];

/** A custom range may span at most this much (the hourly rollups answer it in ≤ 2,160 buckets). */
export const CUSTOM_RANGE_MAX_DAYS = 90;

const isoDate = z.iso.datetime({ offset: true, local: true });

/** Filters shared by the dashboard query and monitors; spelled as runFiltersSchema (lib/runs/schemas.ts) where both have them. */
export const metricFiltersSchema = z.strictObject({
  graph: z.string().min(1).max(100).optional(),
  version: z.coerce.number().int().min(1).optional(),
  model: modelIdSchema.optional(),
  tool: z.string().min(1).max(200).optional(),
  startedBy: z.string().min(1).max(200).optional(),
});
export type MetricFilters = z.infer<typeof metricFiltersSchema>;

/**
 * The dashboard's query (query string of `GET /api/metrics`). `series`
 * omitted: every series. Bad input → 422 naming the field.
 */
export const metricsQuerySchema = metricFiltersSchema
  .extend({
    range: z.enum(METRIC_RANGES).default("24h"),
    /** custom only: ISO start and end, from < to, at most 90 days apart. */
    from: isoDate.optional(),
    to: isoDate.optional(),
    breakdown: z.enum(METRIC_BREAKDOWNS).default("none"),
    /** Comma-separated series names in the query string; an array through the client. */
    series: z
      .preprocess((value) => (typeof value === "string" ? value.split(",").filter((part) => part !== "") : value), z.array(z.enum(METRIC_SERIES_NAMES)).min(1).max(METRIC_SERIES_NAMES.length))
      .optional(),
  })
  .strict()
  .superRefine((query, ctx) => {
    if (query.range !== "custom") {
      if (query.from !== undefined) ctx.addIssue({ code: "custom", path: ["from"], message: "only with range=custom" });
      if (query.to !== undefined) ctx.addIssue({ code: "custom", path: ["to"], message: "only with range=custom" });
      return;
    }
    if (query.from === undefined) ctx.addIssue({ code: "custom", path: ["from"], message: "required with range=custom" });
    if (query.to === undefined) ctx.addIssue({ code: "custom", path: ["to"], message: "required with range=custom" });
    if (query.from === undefined || query.to === undefined) return;
    const from = Date.parse(query.from);
    const to = Date.parse(query.to);
    if (!(from < to)) ctx.addIssue({ code: "custom", path: ["to"], message: "must be after from" });
    else if (to - from > CUSTOM_RANGE_MAX_DAYS * 86_400_000) ctx.addIssue({ code: "custom", path: ["to"], message: `at most ${CUSTOM_RANGE_MAX_DAYS} days after from` });
  });
/** What a caller sends (the client's metrics(), the page's server shell): series as names, not text. */
export type MetricsQueryInput = Omit<z.input<typeof metricsQuerySchema>, "series" | "version"> & { version?: number; series?: MetricSeriesName[] };
export type MetricsQuery = z.output<typeof metricsQuerySchema>;

/** A monitor's (and seriesValue's) question: one number for a series over the last `windowMinutes`. */
export const seriesValueQuerySchema = z.strictObject({
  series: z.enum(METRIC_SERIES_NAMES),
  /** Omitted: the series' natural stat (count for counters, sum for sums, p95 for latencies, rate for ratios). */
  stat: z.enum(METRIC_STATS).optional(),
  windowMinutes: z.number().int().min(1).max(CUSTOM_RANGE_MAX_DAYS * 24 * 60),
  /** Only this label (a failure reason, a status, a target); omitted: all labels. */
  label: z.string().min(1).max(200).optional(),
  filters: metricFiltersSchema.default({}),
});
export type SeriesValueQuery = z.input<typeof seriesValueQuerySchema>;

/** One point of a chart: the bucket starting at `t` (ISO); `value` null when a ratio or percentile has nothing to divide. */
export interface MetricPoint {
  t: string;
  value: number | null;
}

/**
 * One line of a chart. Without a breakdown a series has one line with key "";
 * with one, a line per value of the breakdown dimension (key = graph name,
 * version number as text, model id, tool, starter or label; "" when the row
 * has none, e.g. tool on a run_started).
 */
export interface MetricLine {
  key: string;
  /** The line's total over the range (count, sum, ratio or the stat's percentile over all its points). */
  total: number | null;
  points: MetricPoint[];
}

/** What a latency series adds: its percentiles over the whole range. */
export interface LatencySummary {
  count: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

export interface MetricSeriesData {
  name: MetricSeriesName;
  label: string;
  unit: MetricUnit;
  kind: MetricKind;
  /**
   * Latency series: each point's value is its p95 (ms) unless `stat` says
   * otherwise; counters: the count in the step; sums: the amount; ratios: 0..1.
   */
  stat: MetricStat;
  lines: MetricLine[];
  latency?: LatencySummary;
}

/** A waiting approval in the pending summary. */
export interface PendingApprovalsNow {
  count: number;
  /** When the oldest one was requested (ISO), null when none wait. */
  oldestRequestedAt: string | null;
  oldestWaitMs: number | null;
}

/**
 * The dashboard's response. A chart per series is a straight map:
 * `series[name].lines.map(line => line.points)`, one line per breakdown key
 * (sorted by total, descending; at most 12 lines, the rest summed into key
 * "other"). Every line of every series has the same `t` grid: from
 * `range.from` by `range.stepSeconds`, the last point the bucket that holds
 * `range.to` (now, for a range that ends now: the bucket still being filled).
 */
export interface MetricsDashboard {
  /** `stepSeconds` is chosen from the range (lib/metrics/step.ts); say it with describeStep. `resolution`: the rollups read. */
  range: { from: string; to: string; stepSeconds: number; resolution: "minute" | "hour" | "day" };
  breakdown: MetricBreakdown;
  filters: MetricFilters;
  /** One number per series over the whole range (counters' counts, sums, ratios, latencies' p95; approvals_pending: now). */
  totals: Record<MetricSeriesName, number | null>;
  series: Partial<Record<MetricSeriesName, MetricSeriesData>>;
  pendingApprovals: PendingApprovalsNow;
  /** Percentiles are read from log-spaced bins: each is within this relative error of the true value (see docs/observe.md#metrics). */
  percentileRelativeError: number;
  /**
   * How far the rollups are behind the run ledger: the ledger writes not counted yet (the deriver
   * takes them in within ~100 ms) and how long the oldest has waited. The dashboard says so and
   * reads again every second while `queued > 0`.
   */
  derived: DeriveLag;
  generatedAt: string;
}
