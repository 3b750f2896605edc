// How far the derived rows (search index, facets, metric rollups) are behind the
// run ledger, read from the queue the ledger's transactions fill and the deriver
// empties (ledger_derive_queue, lib/run-ledger/deriver.ts). It lives down here,
// not in lib/run-ledger, because the readers of derived rows need it: lib/metrics
// and lib/search sit below lib/run-ledger (the deriver imports them), so they
// cannot import it back.
import type { Db } from "./db-type";

/** How far the derived rows are behind the ledger. */
export interface DeriveLag {
  /** Ledger transactions whose derived rows are not written yet. */
  queued: number;
  /** How long the oldest of them has waited, in ms (0 when none). */
  lagMs: number;
}

/** The queue's length and the age of its oldest row at `now`: two indexed reads (count, and the first row by id). */
export async function readDeriveLag(db: Db, now: Date = new Date()): Promise<DeriveLag> {
  const [queued, oldest] = await Promise.all([db.deriveQueueItem.count(), db.deriveQueueItem.findFirst({ orderBy: { id: "asc" }, select: { at: true } })]);
  // The count and the oldest row are two reads: a row derived between them leaves no oldest, and a
  // clock behind a writer's would give a negative age; both read as "no wait", never as a negative one.
  return { queued, lagMs: oldest ? Math.max(0, now.getTime() - oldest.at.getTime()) : 0 };
}
