// Monitor and alert rows as the web server and the worker read them: the
// stored JSON (filters, an alert's condition) is parsed back through the same
// schemas that wrote it, so a view never carries an unchecked shape.
import { z } from "zod";
import type { Monitor, MonitorAlert } from "../db/generated/sqlite/client";
import { METRIC_STATS, metricFiltersSchema } from "../metrics/schemas";
import { alertRunsHref } from "./episode";
import { ALERT_RESOLVED_REASONS, ALERT_STATES, MONITOR_COMPARATORS, MONITOR_SERIES_NAMES, type AlertCondition, type AlertView, type MonitorView } from "./schemas";

export type MonitorRow = Monitor;
export type MonitorAlertRow = MonitorAlert;

const storedCondition = z.object({
  series: z.enum(MONITOR_SERIES_NAMES),
  stat: z.enum(METRIC_STATS).nullable(),
  label: z.string().nullable(),
  comparator: z.enum(MONITOR_COMPARATORS),
  threshold: z.number(),
  windowMinutes: z.number().int(),
  filters: metricFiltersSchema,
});

/** The monitor's condition, as evaluated and as stored on an alert it fires. */
export function conditionOf(row: MonitorRow): AlertCondition {
  return storedCondition.parse({
    series: row.series,
    stat: row.stat,
    label: row.label,
    comparator: row.comparator,
    threshold: row.threshold,
    windowMinutes: row.windowMinutes,
    filters: JSON.parse(row.filters),
  });
}

export function toAlertView(row: MonitorAlertRow): AlertView {
  const condition = storedCondition.parse(JSON.parse(row.condition));
  const resolvedReason = z.enum(ALERT_RESOLVED_REASONS).nullable().parse(row.resolvedReason);
  return {
    id: row.id,
    monitorId: row.monitorId,
    monitorName: row.monitorName,
    state: z.enum(ALERT_STATES).parse(row.state),
    condition,
    valueAtFire: row.valueAtFire,
    lastValue: row.lastValue,
    firedAt: row.firedAt.toISOString(),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    resolvedReason,
    notified: { fired: row.firedNotifiedAt?.toISOString() ?? null, resolved: row.resolvedNotifiedAt?.toISOString() ?? null },
    runsHref: alertRunsHref(condition, row.firedAt, row.resolvedAt),
  };
}

export function toMonitorView(row: MonitorRow, open: MonitorAlertRow | null): MonitorView {
  return {
    id: row.id,
    name: row.name,
    ...conditionOf(row),
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastValue: row.lastValue,
    lastEvaluatedAt: row.lastEvaluatedAt?.toISOString() ?? null,
    firing: open ? toAlertView(open) : null,
  };
}
