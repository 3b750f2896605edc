// What the started_* series (lib/metrics/derive.ts) need of the ledger for the
// top-level runs of a derive pass: when each run's row says it started (the
// runs list's start, so a bar lists exactly its runs), where each run was
// before the pass's first state event of it (the ledger's previous state
// event: a follow-up moves a completed run back to running, a cancel after
// the answer moves it to cancelled), and the cutoff before which a backfill
// counted a run instead (./started-backfill.ts). Kept with the ledger, its one
// reader, as ./metric-reads.ts is.
import type { Db } from "../db/prisma";
import type { DbTransaction } from "../db/transactions";
import type { RunEvent } from "../contract/types";
import { STATE_EVENT_TYPES, startedStateAfter, type DerivableBatch, type StartedCount, type StartedRuns } from "../metrics/derive";

type Client = Db | DbTransaction;

/** metric_backfill_state's row of the started_* series (row 1 is the other series' backfill). */
export const STARTED_BACKFILL_ROW = 2;

const STATE_TYPES: ReadonlySet<string> = new Set(STATE_EVENT_TYPES);

/**
 * Before this moment (ms; 0: never) the database already held runs when the started_* series
 * came: those runs' events before it are counted by the backfill, not by the deriver.
 */
export async function readStartedCutoff(db: Client): Promise<number> {
  const row = await db.metricBackfillState.findUnique({ where: { id: STARTED_BACKFILL_ROW }, select: { backfillBeforeMs: true } });
  return row?.backfillBeforeMs ?? 0;
}

/** Where a run was after its last state event before `beforeSeq`; null when it has none (not started yet). */
async function stateBefore(db: Client, runId: string, beforeSeq: number): Promise<StartedCount | null> {
  const row = await db.runEvent.findFirst({
    where: { runId, seq: { lt: beforeSeq }, type: { in: [...STATE_EVENT_TYPES] } },
    orderBy: { seq: "desc" },
    select: { data: true },
  });
  return row ? (startedStateAfter(JSON.parse(row.data) as RunEvent) ?? null) : null;
}

/** The started_* series' view of the top-level runs that have state events in `batches`: three small reads at most. */
export async function readStartedRuns(db: Client, batches: readonly DerivableBatch[]): Promise<StartedRuns> {
  // Each top-level run's first state event in these batches (batches of a run come in the order they were written).
  const first = new Map<string, RunEvent>();
  for (const batch of batches) {
    if (batch.run.parentRunId !== null) continue;
    const event = batch.events.find((e) => STATE_TYPES.has(e.type));
    if (event && !first.has(batch.run.runId)) first.set(batch.run.runId, event);
  }
  const runIds = [...first.keys()];
  if (runIds.length === 0) return { startMsOf: () => undefined, priorOf: () => null, counts: () => false };
  const looked = runIds.filter((id) => first.get(id)?.type !== "run_started");
  const [rows, cutoff, priors] = await Promise.all([
    db.run.findMany({ where: { id: { in: runIds } }, select: { id: true, startedAt: true } }),
    readStartedCutoff(db),
    Promise.all(looked.map(async (id) => [id, await stateBefore(db, id, first.get(id)?.seq ?? 0)] as const)),
  ]);
  const startMs = new Map(rows.map((row) => [row.id, row.startedAt.getTime()]));
  const prior = new Map(priors);
  return {
    startMsOf: (runId) => startMs.get(runId),
    priorOf: (runId) => prior.get(runId) ?? null,
    counts: (runId, atMs) => cutoff === 0 || (startMs.get(runId) ?? 0) >= cutoff || atMs >= cutoff,
  };
}
