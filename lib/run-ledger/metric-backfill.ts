// The rollups of an upgraded install: events written before the rollups
// existed (before metric_backfill_state.backfill_before_ms, set by the
// migration that created them) are derived once, page by page in (run, seq)
// order. Each page's increments and the cursor move in one transaction, so a
// backfill stopped anywhere resumes where it stopped and counts nothing twice.
// Events written after the migration are derived live by the ledger's writer.
// It lives with the ledger (its one reader) and calls lib/metrics' derivation, as derived.ts does.
import type { Db } from "../db/prisma";
import { writeTransaction } from "../db/transactions";
import type { RunEvent } from "../contract/types";
import type { PriceBook } from "../pricing/price-book";
import { cachedPriceBook } from "../pricing/server/read-price-book";
import type { DerivableBatch } from "../metrics/derive";
import { incrementsFor, upsertRollups } from "../metrics/server/rollups";
import { readEventsAfter, readRunIdentities } from "./metric-reads";

export interface BackfillOptions {
  /** Events per transaction (default 2,000): short transactions, so live ledger writes are not held up. */
  pageSize?: number;
  /** Stop after this many pages (default: until done); the next call resumes. */
  maxPages?: number;
  /** Default: the price book (lib/pricing); each call at the price in effect when it ran. */
  prices?: PriceBook;
}

export interface BackfillReport {
  events: number;
  pages: number;
  done: boolean;
}

/** One page: derive and write it, move the cursor (done after a short page). */
async function backfillPage(db: Db, pageSize: number, prices: PriceBook): Promise<{ events: number; more: boolean }> {
  return writeTransaction(db, async (tx) => {
    const state = await tx.metricBackfillState.findUnique({ where: { id: 1 } });
    if (!state || state.done) return { events: 0, more: false };
    const cutoff = new Date(state.backfillBeforeMs);
    const rows = await readEventsAfter(tx, { runId: state.cursorRunId, seq: state.cursorSeq }, pageSize);
    const last = rows.at(-1);
    if (!last) {
      await tx.metricBackfillState.update({ where: { id: 1 }, data: { done: true } });
      return { events: 0, more: false };
    }
    const older = rows.filter((row) => row.at < cutoff);
    const runs = await readRunIdentities(tx, [...new Set(older.map((row) => row.runId))]);
    const batches: DerivableBatch[] = runs.map((run) => ({
      run: { runId: run.id, parentRunId: run.parentRunId, graphName: run.graphName, agentVersionId: run.agentVersionId, startedBy: run.startedBy },
      summary: { startedAt: run.startedAt.toISOString() },
      events: older.filter((row) => row.runId === run.id).map((row) => JSON.parse(row.data) as RunEvent),
    }));
    await upsertRollups(tx, await incrementsFor(tx, batches, prices));
    // A short page reached the end of the ledger: whatever is written from now on is derived live.
    const more = rows.length === pageSize;
    await tx.metricBackfillState.update({ where: { id: 1 }, data: { cursorRunId: last.runId, cursorSeq: last.seq, done: !more } });
    return { events: older.length, more };
  });
}

/**
 * Derives the rollups of events that predate them, resuming from the cursor.
 * Idempotent: once done (or on a database created with the rollups, whose
 * ledger was empty at the cutoff) it reads one row and returns.
 */
export async function backfillMetricRollups(db: Db, options: BackfillOptions = {}): Promise<BackfillReport> {
  const pageSize = options.pageSize ?? 2_000;
  const prices = options.prices ?? (await cachedPriceBook(db));
  const report: BackfillReport = { events: 0, pages: 0, done: false };
  for (;;) {
    if (options.maxPages !== undefined && report.pages >= options.maxPages) return report;
    const page = await backfillPage(db, pageSize, prices);
    report.pages++;
    report.events += page.events;
    if (!page.more) {
      report.done = true;
      return report;
    }
  }
}
