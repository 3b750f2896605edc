// The dashboard's state lives in the URL so a view can be shared: the range,
// the filters and the breakdown, read with the metrics contract's own schema
// (the API reads the same query), and the runs-list link each bar stands for.
import { METRIC_SERIES, metricsQuerySchema, type MetricBreakdown, type MetricFilters, type MetricSeriesDef, type MetricSeriesName, type MetricsQuery } from "@/lib/metrics/schemas";
import { FAILURE_REASONS, PLAN_OUTCOMES } from "@/lib/runs/schemas";
import { LABELLED_SERIES } from "./panels";

/** The URL keys the dashboard owns; `series` is chosen by the page, never by the URL. */
export const DASHBOARD_KEYS = ["range", "from", "to", "graph", "version", "model", "tool", "startedBy", "breakdown"] as const;
export type DashboardKey = (typeof DASHBOARD_KEYS)[number];

export interface UrlIssue {
  field: string;
  message: string;
}

export type DashboardUrlState = { ok: true; query: MetricsQuery; search: string } | { ok: false; issues: UrlIssue[] };

/**
 * Reads the dashboard's query from the page's URL. Every key is passed to the
 * strict schema, so a misspelt key is named rather than silently ignored; the
 * returned `search` is what the API is asked with (empty values dropped).
 */
export function readDashboardUrl(params: URLSearchParams): DashboardUrlState {
  const raw: Record<string, string> = {};
  const issues: UrlIssue[] = [];
  for (const [key, value] of params) {
    if (key === "series") issues.push({ field: key, message: "is chosen by the dashboard, not the URL" });
    else if (key in raw) issues.push({ field: key, message: "appears more than once" });
    else if (value !== "") raw[key] = value;
  }
  const parsed = metricsQuerySchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path.length ? issue.path.join(".") : issue.code === "unrecognized_keys" ? issue.keys.join(", ") : "query";
      issues.push({ field, message: issue.message });
    }
  }
  if (issues.length || !parsed.success) return { ok: false, issues };
  return { ok: true, query: parsed.data, search: new URLSearchParams(raw).toString() };
}

/** The second query of an unsplit view: the series that have a label of their own, split by it. */
export function labelledSearch(search: string): string {
  const next = new URLSearchParams(search);
  next.set("breakdown", "label");
  next.set("series", LABELLED_SERIES.join(","));
  return next.toString();
}

/** Whether the view draws the labelled series by their own label (no split chosen). */
export function drawsOwnLabels(query: MetricsQuery): boolean {
  return query.breakdown === "none" || query.breakdown === "label";
}

/** The URL after one control changed: empty values are removed, a range other than custom drops from/to. */
export function nextDashboardSearch(params: URLSearchParams, changes: Partial<Record<DashboardKey, string>>): string {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes)) {
    if (value) next.set(key, value);
    else next.delete(key);
  }
  if (next.get("range") !== "custom") {
    next.delete("from");
    next.delete("to");
  }
  return next.toString();
}

/** The filter a breakdown key stands for in the runs list's query (`tool`/`model` as the runs list spells them). */
const BREAKDOWN_PARAM: Partial<Record<MetricBreakdown, string>> = { graph: "graph", version: "version", model: "model", tool: "tool", starter: "startedBy" };

export interface DrillDown {
  series: MetricSeriesName;
  /** The line's breakdown key ("" without a breakdown). */
  lineKey: string;
  breakdown: MetricBreakdown;
  filters: MetricFilters;
  /** The span of runs it stands for: a bucket, or the whole range. */
  from: Date;
  to: Date;
}

const isOneOf = <T extends string>(values: readonly T[], value: string): value is T => (values as readonly string[]).includes(value);

/** The runs-list status a state line of runs_by_state stands for ("running": any state of a run still working). */
const STATUS_OF_STATE: Record<string, string> = { completed: "completed", failed: "failed", cancelled: "cancelled", running: "active" };

/**
 * The runs list filtered to the runs behind one bar (or one legend entry):
 * the dashboard's filters, the bar's breakdown key and what the series means
 * (failed → status and reason, a state → that status, routing → routedTo,
 * plans → planOutcome). The overview counts the runs experiments started, so
 * the list is asked to show them too (`experiments=1`, which it says on the
 * page). A model or tool filter narrows only the series that record a model
 * or a tool (runs are not split by either), so only their links carry it.
 * The runs list filters by start time, so the span is of runs started in it;
 * the series that count runs by their start (lib/metrics/schemas.ts
 * `byStart`) list exactly the runs of the bar. Null when no runs-list filter
 * says which runs those are (the "other" line, a key the list cannot filter by).
 */
export function drillDownHref({ series, lineKey, breakdown, filters, from, to }: DrillDown): string | null {
  const params = new URLSearchParams();
  const def: MetricSeriesDef = METRIC_SERIES[series];
  if (filters.graph) params.set("graph", filters.graph);
  if (filters.version) params.set("version", String(filters.version));
  if (filters.startedBy) params.set("startedBy", filters.startedBy);
  if (filters.model && def.dimensions?.includes("model")) params.set("model", filters.model);
  if (filters.tool && def.dimensions?.includes("tool")) params.set("tool", filters.tool);

  const meaning = def.drillDown;
  if (meaning?.startsWith("status:")) params.set("status", meaning.slice("status:".length));
  if (series === "runs_failed" || series === "started_failed") params.set("status", "failed");
  if (series === "routing_exhausted") params.set("reason", "routing_exhausted");
  if (series === "validation_errors") params.set("reason", "validation_error");

  if (lineKey === "other") return null;
  const byOwnLabel = breakdown === "none" || breakdown === "label";
  if (meaning === "state" && byOwnLabel) {
    // Unsplit, runs by state draw a line per state; the key "" is all of them (the runs started).
    const status = STATUS_OF_STATE[lineKey];
    if (status) params.set("status", status);
    else if (lineKey !== "") return null;
  } else if (breakdown === "label" && lineKey !== "") {
    if (meaning === "reason" && (series === "runs_failed" || series === "started_failed") && isOneOf(FAILURE_REASONS, lineKey)) params.set("reason", lineKey);
    else if (meaning === "routedTo") params.set("routedTo", lineKey);
    else if (meaning === "planOutcome" && isOneOf(PLAN_OUTCOMES, lineKey)) params.set("planOutcome", lineKey);
    else return null;
  } else if (!byOwnLabel) {
    const param = BREAKDOWN_PARAM[breakdown];
    if (!param || lineKey === "") return null;
    params.set(param, lineKey);
  }
  params.set("experiments", "1");
  params.set("from", from.toISOString());
  params.set("to", to.toISOString());
  return `/runs?${params.toString()}`;
}
