// The export's counts where a user can see them: the workers add what they
// exported and dropped to one row (id "otlp"), GET /api/health reads it.
// Counts live in each worker's memory between flushes, so a flush is a few
// increments every few seconds, never a write per span.
import type { Db } from "../db/prisma";

/** What the export did since the process started; drops are what a user must be able to see. */
export interface TelemetryStats {
  exportedSpans: number;
  /** Spans that did not fit the queue, or whose batch the endpoint did not take. */
  droppedSpans: number;
  /** Batches the endpoint refused or never answered. */
  failedExports: number;
  /** Run trees not exported: too many waiting, or their ledger could not be read. */
  droppedRuns: number;
  lastFailureAt: string | null;
}

const ROW_ID = "otlp";

/** The counts summed over every worker, or null while no worker has exported (export off, or nothing finished yet). */
export async function readExportStats(db: Db): Promise<TelemetryStats | null> {
  const row = await db.telemetryExportStat.findUnique({ where: { id: ROW_ID } });
  if (!row) return null;
  return { exportedSpans: row.exportedSpans, droppedSpans: row.droppedSpans, failedExports: row.failedExports, droppedRuns: row.droppedRuns, lastFailureAt: row.lastFailureAt?.toISOString() ?? null };
}

/** Adds one worker's counts since its last flush. */
export async function addExportStats(db: Db, delta: TelemetryStats): Promise<void> {
  const lastFailureAt = delta.lastFailureAt ? new Date(delta.lastFailureAt) : undefined;
  await db.telemetryExportStat.upsert({
    where: { id: ROW_ID },
    create: { id: ROW_ID, exportedSpans: delta.exportedSpans, droppedSpans: delta.droppedSpans, failedExports: delta.failedExports, droppedRuns: delta.droppedRuns, lastFailureAt: lastFailureAt ?? null },
    update: {
      exportedSpans: { increment: delta.exportedSpans },
      droppedSpans: { increment: delta.droppedSpans },
      failedExports: { increment: delta.failedExports },
      droppedRuns: { increment: delta.droppedRuns },
      ...(lastFailureAt ? { lastFailureAt } : {}),
    },
  });
}

/** What changed between two snapshots of a worker's counts (null: nothing to write). */
export function statsDelta(now: TelemetryStats, flushed: TelemetryStats): TelemetryStats | null {
  const delta = {
    exportedSpans: now.exportedSpans - flushed.exportedSpans,
    droppedSpans: now.droppedSpans - flushed.droppedSpans,
    failedExports: now.failedExports - flushed.failedExports,
    droppedRuns: now.droppedRuns - flushed.droppedRuns,
    lastFailureAt: now.lastFailureAt !== flushed.lastFailureAt ? now.lastFailureAt : null,
  };
  const changed = delta.exportedSpans || delta.droppedSpans || delta.failedExports || delta.droppedRuns || delta.lastFailureAt;
  return changed ? delta : null;
}
