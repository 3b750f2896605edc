// What one evaluation of a monitor means (pure, browser-safe): whether the value
// breaches the threshold, and what that does to the monitor's alert episode.
import { METRIC_SERIES } from "../metrics/schemas";
import { formatCost, formatDuration, formatScore } from "../format/figures";
import { COMPARATOR_SYMBOLS, seriesUnit, type AlertCondition, type MonitorComparator, type MonitorSeriesName } from "./schemas";

/**
 * Whether `value` crosses the threshold. A series with nothing to measure
 * (null: no runs ended, so no failure rate) breaches nothing: an alert on it
 * resolves rather than staying open on a question without an answer.
 */
export function breaches(value: number | null, comparator: MonitorComparator, threshold: number): boolean {
  if (value === null || !Number.isFinite(value)) return false;
  switch (comparator) {
    case "gt":
      return value > threshold;
    case "gte":
      return value >= threshold;
    case "lt":
      return value < threshold;
    case "lte":
      return value <= threshold;
  }
}

/**
 * The episode's step: `fire` opens an alert, `resolve` closes the open one,
 * `stay` keeps it open (its last value moves), `quiet` leaves nothing open.
 * An alert fires once per episode: a breach with an open alert is `stay`.
 */
export type EpisodeStep = "fire" | "stay" | "resolve" | "quiet";

export function episodeStep(open: boolean, breaching: boolean): EpisodeStep {
  if (breaching) return open ? "stay" : "fire";
  return open ? "resolve" : "quiet";
}

/** A value in its series' unit for people: 12.5 %, 1.2 s, $0.0312, 42 (durations and money as every page writes them). */
export function formatSeriesValue(series: MonitorSeriesName, value: number | null): string {
  if (value === null) return "no data";
  // A score reads as every page writes it (0.83), not as a percentage.
  if (series === "evaluator_score") return formatScore(value);
  switch (seriesUnit(series)) {
    case "ratio":
      return `${trim(value * 100)} %`;
    case "ms":
      return formatDuration(value);
    case "usd":
      return formatCost(value);
    case "tokens":
    case "count":
      return trim(value);
  }
}

function trim(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** "Runs failed > 5 over 15 min" — the condition in one line. */
export function describeCondition(condition: Pick<AlertCondition, "series" | "stat" | "label" | "comparator" | "threshold" | "windowMinutes">, seriesLabel: string): string {
  const stat = condition.stat ? ` (${condition.stat})` : "";
  const label = condition.label ? ` [${condition.label}]` : "";
  return `${seriesLabel}${stat}${label} ${COMPARATOR_SYMBOLS[condition.comparator]} ${formatSeriesValue(condition.series, condition.threshold)} over ${condition.windowMinutes} min`;
}

/**
 * The runs list filtered to what an alert watched: the monitor's filters, the
 * series' own drill-down (failed runs, a failure reason, a routing target, a
 * plan outcome, runs awaiting approval) and the runs started from the window
 * before it fired until it resolved.
 */
export function alertRunsHref(condition: AlertCondition, firedAt: Date, resolvedAt: Date | null): string {
  const params = new URLSearchParams();
  const { graph, version, startedBy } = condition.filters;
  if (graph) params.set("graph", graph);
  if (version !== undefined) params.set("version", String(version));
  if (startedBy) params.set("startedBy", startedBy);
  if (condition.series === "approvals_pending" || condition.series === "approvals_oldest_wait") {
    params.set("awaitingApproval", "1");
    return `/runs?${params.toString()}`;
  }
  // An evaluator's mean: the runs it scored (below the threshold when the monitor watches for a low mean).
  if (condition.series === "evaluator_score" && condition.label) {
    params.set("evaluator", condition.label);
    if ((condition.comparator === "lt" || condition.comparator === "lte") && condition.threshold > 0 && condition.threshold <= 1) params.set("scoreBelow", String(condition.threshold));
  }
  const drill = condition.series in METRIC_SERIES ? (METRIC_SERIES[condition.series as keyof typeof METRIC_SERIES] as { drillDown?: string }).drillDown : undefined;
  if (condition.series === "validation_errors") params.set("reason", "validation_error");
  else if (condition.series === "routing_exhausted") params.set("reason", "routing_exhausted");
  else if (drill?.startsWith("status:")) params.set("status", drill.slice("status:".length));
  // Runs by state: the state a label names is the runs list's status ("running": any state of a working run).
  else if (drill === "state") {
    if (condition.label) params.set("status", condition.label === "running" ? "active" : condition.label);
  } else if (drill && condition.label) params.set(drill, condition.label);
  // Failures of any reason: the failed runs.
  else if (drill === "reason") params.set("status", "failed");
  params.set("from", new Date(firedAt.getTime() - condition.windowMinutes * 60_000).toISOString());
  if (resolvedAt) params.set("to", resolvedAt.toISOString());
  // The series count the runs experiments started: the list shows them too (and says so).
  params.set("experiments", "1");
  return `/runs?${params.toString()}`;
}
