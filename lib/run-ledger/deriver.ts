// The deriver: turns what ledger transactions queued (ledger_derive_queue, see
// ./derived.ts) into the search index, facets and metric rollups, off the run's
// path. Each pass claims the oldest queued rows by deleting them and writes
// their derived rows in the same transaction:
// - exactly once: a row is derived in the transaction that deletes it, so a
//   crash before the commit leaves it queued and one after leaves it derived;
// - resumable: whatever a stopped or crashed process left queued, the next pass
//   of any process takes;
// - safe side by side: two derivers that read the same rows both try to delete
//   them; the second finds fewer than it read (its delete waits for the first's
//   commit) and rolls back, deriving nothing. So every worker may run one, and a
//   database has in effect one at a time.
// It runs in the worker (woken by its ledger writer, swept every few seconds for
// rows other processes left), and a monitor's evaluation catches it up first.
import type { Db } from "../db/prisma";
import { writeTransaction, type DbTransaction } from "../db/transactions";
import { writeMetricRollups } from "../metrics/server/rollups";
import { cachedPriceBook } from "../pricing/server/read-price-book";
import { indexForSearch } from "../search/server/index-writer";
import type { DerivableRows } from "./derived";
import { readStartedRuns } from "./started-runs";

/** Queue rows per pass: each holds one ledger transaction (up to a group of 100 batches), texts already cut. */
const ROWS_PER_PASS = 50;

/** Another deriver deleted some of the rows this pass read: it derives them; this pass rolls back. */
export class DeriveClaimLostError extends Error {
  constructor(read: number, claimed: number) {
    super(`another deriver took ${read - claimed} of the ${read} queued rows this pass read`);
    this.name = "DeriveClaimLostError";
  }
}

/**
 * Drops the rows of fenced attempts a newer attempt has replaced since (its first batch removed the older
 * attempt's ledger rows and search documents, ./fence.ts): deriving them now would index removed text.
 */
async function withoutSupersededAttempts(tx: DbTransaction, rows: DerivableRows[]): Promise<DerivableRows[]> {
  const fenced = [...new Set(rows.filter((row) => row.attempt !== undefined).map((row) => row.run.runId))];
  if (fenced.length === 0) return rows;
  const current = new Map((await tx.run.findMany({ where: { id: { in: fenced } }, select: { id: true, generation: true } })).map((run) => [run.id, run.generation]));
  return rows.filter((row) => row.attempt === undefined || row.attempt - 1 >= (current.get(row.run.runId) ?? 0));
}

export interface DerivePassHooks {
  /** Called inside the pass's transaction once its rows are claimed (deleted) and before they are derived (the crash test stops a process here). */
  onClaimed?: (rows: number) => Promise<void>;
}

/** One pass: derives up to `maxRows` of the oldest queued rows; returns how many it derived (0: the queue was empty). */
export async function derivePass(db: Db, maxRows = ROWS_PER_PASS, hooks: DerivePassHooks = {}): Promise<number> {
  // Read committed: the claim (delete, then count) is what keeps it exactly once, not what was read; a
  // serializable pass would also fail on the ledger writer's inserts into the queue it reads.
  // Read before the transaction (SQLite: one at a time per process); cached, so most passes read nothing.
  const prices = await cachedPriceBook(db);
  return writeTransaction(
    db,
    async (tx) => {
      const items = await tx.deriveQueueItem.findMany({ orderBy: { id: "asc" }, take: maxRows, select: { id: true, rows: true } });
      if (items.length === 0) return 0;
      const claimed = await tx.deriveQueueItem.deleteMany({ where: { id: { in: items.map((item) => item.id) } } });
      if (claimed.count !== items.length) throw new DeriveClaimLostError(items.length, claimed.count);
      await hooks.onClaimed?.(items.length);
      const rows = await withoutSupersededAttempts(tx, items.flatMap((item) => JSON.parse(item.rows) as DerivableRows[]));
      await indexForSearch(tx, rows);
      await writeMetricRollups(tx, rows, prices, readStartedRuns);
      return items.length;
    },
    { isolation: "read-committed" },
  );
}

/**
 * Derives until the queue is empty (or `maxPasses` passes ran); returns the rows derived.
 * A pass that lost its claim to another deriver is simply run again.
 */
export async function deriveQueued(db: Db, options: { maxPasses?: number; rowsPerPass?: number } = {}): Promise<number> {
  const maxPasses = options.maxPasses ?? Number.POSITIVE_INFINITY;
  let derived = 0;
  for (let pass = 0; pass < maxPasses; pass++) {
    let count: number;
    try {
      count = await derivePass(db, options.rowsPerPass);
    } catch (error) {
      if (error instanceof DeriveClaimLostError) continue;
      throw error;
    }
    if (count === 0) break;
    derived += count;
    // A turn of the event loop between passes: libsql frees a statement's native memory in a finalizer that
    // only runs when the loop turns, and its calls are synchronous, so back-to-back passes over a long
    // backlog held all of it (bench:dashboard's seeding grew 400 MB per 1,000 runs until it yielded).
    await new Promise((resolve) => setImmediate(resolve));
  }
  return derived;
}

export interface DeriveLag {
  /** Ledger transactions whose derived rows are not written yet. */
  queued: number;
  /** How long the oldest of them has waited, in ms (0 when none). */
  lagMs: number;
}

/** How far the derived rows are behind the ledger. */
export async function deriveLag(db: Db, now = new Date()): Promise<DeriveLag> {
  const [queued, oldest] = await Promise.all([db.deriveQueueItem.count(), db.deriveQueueItem.findFirst({ orderBy: { id: "asc" }, select: { at: true } })]);
  return { queued, lagMs: oldest ? Math.max(0, now.getTime() - oldest.at.getTime()) : 0 };
}

export interface Deriver {
  /** Something was queued: derive it soon (batched with whatever else is queued by then). */
  kick(): void;
  /** Also derive every `everyMs` whatever this process wrote (rows other processes left behind); returns a stop function. */
  sweepEvery(everyMs: number): () => void;
  /** Resolves once no pass is running or scheduled (tests). */
  settled(): Promise<void>;
  /** Stops deriving after the pass under way (shutdown): what is still queued waits for the next process. */
  close(): Promise<void>;
}

/**
 * How long a kick waits before its pass. On SQLite a pass holds the worker's main thread (the driver is
 * synchronous and the adapter serialises the process's statements), where workflow activations wait; one
 * pass per written group put ~10 ms into most iterations of a run (bench:engine: median overhead 22 ms at
 * 20 ms, 13 ms at 250 ms, 15 ms at 1 s with larger passes raising the p95). A quarter second gathers a few
 * iterations of every busy run into one pass, and is still well under what a person notices on a page.
 */
const DERIVE_DELAY_MS = 250;

/**
 * The deriver of one process. A kick schedules a pass `delayMs` later, so the
 * batches of many concurrent runs (and several iterations of each) are derived together; kicks during a pass run
 * another pass after it; passes repeat until the queue is empty.
 */
export function createDeriver(db: Db, options: { delayMs?: number } = {}): Deriver {
  const delayMs = options.delayMs ?? DERIVE_DELAY_MS;
  let scheduled: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let warned = false;
  let closed = false;

  async function drain(): Promise<void> {
    try {
      for (;;) {
        if (closed) break;
        again = false;
        // One pass at a time, so a close is heard between passes.
        if ((await deriveQueued(db, { maxPasses: 1 })) === 0 && !again) break;
      }
      warned = false;
    } catch (error) {
      // The rows stay queued: the next kick or sweep derives them. One line per outage, not one per pass.
      if (!warned) console.warn("deriver: derived rows not written yet (they stay queued):", error instanceof Error ? error.message : error);
      warned = true;
    } finally {
      running = null;
    }
  }

  function kick(): void {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    if (scheduled) return;
    scheduled = setTimeout(() => {
      scheduled = null;
      running = drain();
    }, delayMs);
    // A pending pass never keeps a process alive: what it would derive stays queued for the next one.
    scheduled.unref();
  }

  return {
    kick,
    sweepEvery(everyMs) {
      kick();
      const timer = setInterval(kick, everyMs);
      timer.unref();
      return () => clearInterval(timer);
    },
    async settled() {
      while (scheduled || running) {
        if (running) await running;
        else await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    },
    async close() {
      closed = true;
      if (scheduled) clearTimeout(scheduled);
      scheduled = null;
      await running;
    },
  };
}
