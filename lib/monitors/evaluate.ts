// The evaluator's work, one tick (called by the worker's monitor activity; no
// `server-only`, like lib/run-ledger/write.ts, because the worker runs it):
// read each enabled monitor's series, then fire, keep or resolve its alert in
// one transaction with the audit row. An alert fires once per episode: the open
// alert's `openKey` is the monitor's id and unique, so two evaluators racing on
// the same monitor insert one row (the loser's transaction re-runs and sees it).
import type { Db } from "../db/prisma";
import { writeTransaction, type DbTransaction } from "../db/transactions";
import { appendAuditInTransaction } from "../audit/write";
import type { MetricFilters, MetricStat } from "../metrics/schemas";
import { breaches, episodeStep, type EpisodeStep } from "./episode";
import { conditionOf, type MonitorRow } from "./rows";
import type { AlertResolvedReason, MonitorSeriesName } from "./schemas";

/** Reads one number for a series over the trailing window (lib/metrics' seriesValue, or the monitor-only series). */
export type SeriesReader = (db: Db, query: { series: MonitorSeriesName; stat?: MetricStat; label?: string; windowMinutes: number; filters: MetricFilters }) => Promise<number | null>;

export type AlertEvent = "alert.fired" | "alert.resolved";

/** One webhook delivery the tick leaves to do. */
export interface AlertDelivery {
  alertId: string;
  event: AlertEvent;
}

export interface TickResult {
  evaluated: number;
  fired: number;
  resolved: number;
  /** Monitors whose series could not be read this tick (named, for the worker's log). */
  failed: { monitorId: string; message: string }[];
  deliveries: AlertDelivery[];
}

/** Deliveries older than this are given up (a webhook configured later does not replay a week of alerts). */
export const DELIVERY_HORIZON_MS = 24 * 60 * 60_000;
const DELIVERIES_PER_TICK = 50;

const alertId = () => `alert_${crypto.randomUUID().replaceAll("-", "")}`;

/** The audit row of an alert event: a fixed id, so a retried transaction or activity writes it once. */
function auditEntry(event: AlertEvent, alert: { id: string; monitorId: string; monitorName: string }, details: Record<string, unknown>, at: Date) {
  return {
    id: `${event}:${alert.id}`,
    actorId: null,
    action: event,
    target: alert.monitorId,
    details: { alertId: alert.id, monitor: alert.monitorName, ...details },
    at,
  };
}

/**
 * Resolves the monitor's open alert, if any, inside `tx` and audits it. The
 * guarded update (`state = firing`) makes a concurrent second resolve a no-op.
 * Answers whether this call resolved it.
 */
export async function resolveOpenAlert(tx: DbTransaction, monitor: Pick<MonitorRow, "id" | "name">, reason: AlertResolvedReason, value: number | null, now: Date, actorId: string | null = null): Promise<boolean> {
  const open = await tx.monitorAlert.findUnique({ where: { openKey: monitor.id } });
  if (!open) return false;
  const { count } = await tx.monitorAlert.updateMany({
    where: { id: open.id, state: "firing" },
    data: { state: "resolved", openKey: null, resolvedAt: now, resolvedReason: reason, ...(reason === "recovered" ? { lastValue: value } : {}) },
  });
  if (count === 0) return false;
  const entry = auditEntry("alert.resolved", { id: open.id, monitorId: monitor.id, monitorName: monitor.name }, { reason, value, firedAt: open.firedAt.toISOString() }, now);
  await appendAuditInTransaction(tx, { ...entry, actorId });
  return true;
}

/** Applies one reading of a monitor to its alert episode; answers the step taken. */
export async function applyReading(db: Db, monitor: MonitorRow, value: number | null, now: Date): Promise<EpisodeStep> {
  const condition = conditionOf(monitor);
  const breaching = breaches(value, condition.comparator, condition.threshold);
  return writeTransaction(
    db,
    async (tx) => {
      // The monitor may have been disabled or deleted since the tick listed it: then it is not evaluated.
      const { count } = await tx.monitor.updateMany({ where: { id: monitor.id, enabled: true }, data: { lastValue: value, lastEvaluatedAt: now } });
      if (count === 0) return "quiet";
      const open = await tx.monitorAlert.findUnique({ where: { openKey: monitor.id } });
      const step = episodeStep(open !== null, breaching);
      if (step === "stay" && open) await tx.monitorAlert.update({ where: { id: open.id }, data: { lastValue: value } });
      if (step === "resolve") await resolveOpenAlert(tx, monitor, "recovered", value, now);
      if (step === "fire" && value !== null) {
        const id = alertId();
        await tx.monitorAlert.create({
          data: { id, monitorId: monitor.id, monitorName: monitor.name, state: "firing", openKey: monitor.id, condition: JSON.stringify(condition), valueAtFire: value, lastValue: value, firedAt: now },
        });
        const details = { series: condition.series, stat: condition.stat, label: condition.label, comparator: condition.comparator, threshold: condition.threshold, windowMinutes: condition.windowMinutes, value };
        await appendAuditInTransaction(tx, auditEntry("alert.fired", { id, monitorId: monitor.id, monitorName: monitor.name }, details, now));
      }
      return step;
    },
    // A concurrent evaluator's open alert makes this insert a unique violation: re-run, see it, stay.
    { retryOnUniqueViolation: true },
  );
}

/** The webhook deliveries still owed (oldest first; an alert's fired before its resolved), within the horizon. */
export async function pendingDeliveries(db: Db, now: Date): Promise<AlertDelivery[]> {
  const since = new Date(now.getTime() - DELIVERY_HORIZON_MS);
  const rows = await db.monitorAlert.findMany({
    where: { OR: [{ firedNotifiedAt: null, firedAt: { gte: since } }, { state: "resolved", resolvedNotifiedAt: null, resolvedAt: { gte: since } }] },
    orderBy: { firedAt: "asc" },
    take: DELIVERIES_PER_TICK,
  });
  return rows.flatMap((row) => [
    ...(row.firedNotifiedAt === null && row.firedAt >= since ? [{ alertId: row.id, event: "alert.fired" as const }] : []),
    ...(row.state === "resolved" && row.resolvedNotifiedAt === null ? [{ alertId: row.id, event: "alert.resolved" as const }] : []),
  ]);
}

/**
 * One tick: every enabled monitor read and applied (a monitor whose series
 * fails to read is reported and skipped, never blocking the others), then the
 * deliveries owed when a webhook is configured.
 */
export async function evaluateMonitors(db: Db, deps: { readSeries: SeriesReader; webhookConfigured: boolean; now?: () => Date }): Promise<TickResult> {
  const clock = deps.now ?? (() => new Date());
  const monitors = await db.monitor.findMany({ where: { enabled: true }, orderBy: { createdAt: "asc" } });
  const result: TickResult = { evaluated: 0, fired: 0, resolved: 0, failed: [], deliveries: [] };
  for (const monitor of monitors) {
    const condition = conditionOf(monitor);
    let value: number | null;
    try {
      value = await deps.readSeries(db, {
        series: condition.series,
        ...(condition.stat ? { stat: condition.stat } : {}),
        ...(condition.label ? { label: condition.label } : {}),
        windowMinutes: condition.windowMinutes,
        filters: condition.filters,
      });
    } catch (error) {
      result.failed.push({ monitorId: monitor.id, message: error instanceof Error ? error.message : String(error) });
      continue;
    }
    const step = await applyReading(db, monitor, value, clock());
    result.evaluated++;
    if (step === "fire") result.fired++;
    if (step === "resolve") result.resolved++;
  }
  if (deps.webhookConfigured) result.deliveries = await pendingDeliveries(db, clock());
  return result;
}
