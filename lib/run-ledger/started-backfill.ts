// The started_* series of an upgraded install (lib/metrics/derive.ts): runs
// that started before those series existed are counted once, from their state
// events before the cutoff the migration recorded (metric_backfill_state row 2:
// "now" when the database already held runs, 0 when it held none, so a fresh
// database has nothing to backfill). The deriver counts those runs' later
// events itself (./started-runs.ts), so a run in flight during the upgrade is
// counted once: up to the cutoff here, from it there. Each page of runs and the
// cursor move in one transaction, so a backfill stopped anywhere resumes and
// counts nothing twice. `npm start`'s database step runs it (scripts/db/seed-json.ts).
import { EMPTY_PRICE_BOOK } from "../pricing/price-book";
import type { Db } from "../db/prisma";
import { writeTransaction } from "../db/transactions";
import type { RunEvent } from "../contract/types";
import { deriveIncrements, STATE_EVENT_TYPES, type DerivableBatch } from "../metrics/derive";
import { upsertRollups, versionNumbers } from "../metrics/server/rollups";
import { STARTED_BACKFILL_ROW } from "./started-runs";

export interface StartedBackfillReport {
  runs: number;
  pages: number;
  done: boolean;
}

/** One page of top-level runs started before the cutoff, in id order: counted, and the cursor moved (done after a short page). */
async function backfillPage(db: Db, pageSize: number): Promise<{ runs: number; more: boolean }> {
  return writeTransaction(db, async (tx) => {
    const state = await tx.metricBackfillState.findUnique({ where: { id: STARTED_BACKFILL_ROW } });
    if (!state || state.done) return { runs: 0, more: false };
    const cutoff = new Date(state.backfillBeforeMs);
    const runs = await tx.run.findMany({
      where: { parentRunId: null, startedAt: { lt: cutoff }, id: { gt: state.cursorRunId } },
      orderBy: { id: "asc" },
      take: pageSize,
      select: { id: true, graphName: true, agentVersionId: true, startedBy: true, startedAt: true },
    });
    const last = runs.at(-1);
    if (!last) {
      await tx.metricBackfillState.update({ where: { id: STARTED_BACKFILL_ROW }, data: { done: true } });
      return { runs: 0, more: false };
    }
    const events = await tx.runEvent.findMany({
      where: { runId: { in: runs.map((run) => run.id) }, type: { in: [...STATE_EVENT_TYPES] }, at: { lt: cutoff } },
      orderBy: [{ runId: "asc" }, { seq: "asc" }],
      select: { runId: true, data: true },
    });
    const batches: DerivableBatch[] = runs.map((run) => ({
      run: { runId: run.id, parentRunId: null, graphName: run.graphName, agentVersionId: run.agentVersionId, startedBy: run.startedBy },
      summary: { startedAt: run.startedAt.toISOString() },
      events: events.filter((event) => event.runId === run.id).map((event) => JSON.parse(event.data) as RunEvent),
    }));
    const versions = await versionNumbers(tx, [...new Set(runs.flatMap((run) => (run.agentVersionId ? [run.agentVersionId] : [])))]);
    const startMs = new Map(runs.map((run) => [run.id, run.startedAt.getTime()]));
    const increments = deriveIncrements(batches, {
      versionOf: (id) => versions.get(id) ?? 0,
      requestedAtOf: () => undefined,
      prices: EMPTY_PRICE_BOOK,
      // Each run from its first state event: nothing was counted of it before.
      started: { startMsOf: (id) => startMs.get(id), priorOf: () => null, counts: () => true },
      startedOnly: true,
    });
    await upsertRollups(tx, increments);
    const more = runs.length === pageSize;
    await tx.metricBackfillState.update({ where: { id: STARTED_BACKFILL_ROW }, data: { cursorRunId: last.id, done: !more } });
    return { runs: runs.length, more };
  });
}

/** Counts the runs that predate the started_* series, resuming from the cursor; once done it reads one row and returns. */
export async function backfillStartedSeries(db: Db, options: { pageSize?: number; maxPages?: number } = {}): Promise<StartedBackfillReport> {
  const pageSize = options.pageSize ?? 500;
  const report: StartedBackfillReport = { runs: 0, pages: 0, done: false };
  for (;;) {
    if (options.maxPages !== undefined && report.pages >= options.maxPages) return report;
    const page = await backfillPage(db, pageSize);
    report.pages++;
    report.runs += page.runs;
    if (!page.more) {
      report.done = true;
      return report;
    }
  }
}
