import { AsyncLocalStorage } from "node:async_hooks";
import type { Db } from "./db-type";
import type { PrismaClient as PostgresPrismaClient } from "./generated/postgresql/client";
import type { DatabaseProvider } from "../config/database";
import { backoffDelay, countTransactionGivenUp, countTransactionRetry, DatabaseBusyError, retryReason, sleep } from "./contention";

/** The client handed to an interactive transaction's callback. */
export type DbTransaction = Parameters<Extract<Parameters<Db["$transaction"]>[0], (tx: never) => unknown>>[0];

export interface WriteTransactionOptions {
  /**
   * PostgreSQL only (SQLite transactions are always serializable). The default,
   * serializable, makes any read-then-write logic safe, at the price of
   * serialization failures (retried) when transactions touch the same rows.
   * "read-committed" suits work whose correctness does not rest on what it read:
   * guarded updates (`where balance >= amount`), unique keys, rows locked by an
   * update before they are read; hot rows then wait for each other instead of failing.
   */
  isolation?: "serializable" | "read-committed";
  /**
   * Also re-run the transaction when it hits a unique constraint. For work that
   * derives a key from what it read (the next version number, "create unless it
   * exists"): a concurrent writer may take the key first, and the re-run sees it.
   */
  retryOnUniqueViolation?: boolean;
  /** Attempts in all, the first included (default 10). */
  maxAttempts?: number;
  /**
   * How long one attempt may run, for the few writes whose size the caller knows is large (a 100,000-row
   * import): under load they outlast the default, and every retry would time out the same way.
   */
  timeoutMs?: number;
}

/** Prisma's limits for one attempt: waiting to begin (which includes waiting for SQLite's write lock), and running. */
export const TRANSACTION_LIMITS = { maxWait: 15_000, timeout: 15_000 } as const;
const DEFAULT_ATTEMPTS = 10;
const BACKOFF = { baseMs: 10, capMs: 1_000 };

const activeTransaction = new AsyncLocalStorage<{ db: Db; open: boolean }>();

// What a client is, kept on the client object itself: Next loads this module more than once in one
// process (server components and route handlers are bundled apart) around one shared client, and a
// module-level map filled by one copy is empty in the other.
const DB_STATE = Symbol.for("zap.db.state");
interface DbState {
  provider: DatabaseProvider;
  /** The queue of this client's SQLite transactions. */
  gate: { tail: Promise<void> };
}

function stateOf(db: Db): DbState | undefined {
  return (db as unknown as Record<symbol, DbState | undefined>)[DB_STATE];
}

/** Called by createDb: writeTransaction queues SQLite transactions per client. */
export function registerDbProvider(db: Db, provider: DatabaseProvider): void {
  const state: DbState = { provider, gate: { tail: Promise.resolve() } };
  Object.defineProperty(db, DB_STATE, { value: state, enumerable: false });
}

/** Which database a client talks to, for the few queries written in each one's SQL. */
export function dbProvider(db: Db): DatabaseProvider {
  const state = stateOf(db);
  if (!state) throw new Error("database client was not created by createDb");
  return state.provider;
}

/**
 * One SQLite transaction at a time per process, first come first served. The
 * adapter serializes them anyway; queueing here keeps the wait out of Prisma's
 * maxWait/timeout clocks, which would otherwise expire under a burst.
 */
async function queued<T>(db: Db, run: () => Promise<T>): Promise<T> {
  const state = stateOf(db);
  if (state?.provider !== "sqlite") return run();
  const previous = state.gate.tail;
  let release!: () => void;
  state.gate.tail = new Promise<void>((resolve) => (release = resolve));
  await previous;
  try {
    return await run();
  } finally {
    release();
  }
}

/** One attempt: an interactive transaction at the requested isolation level. */
function runTransaction<T>(db: Db, work: (tx: DbTransaction) => Promise<T>, isolation: WriteTransactionOptions["isolation"], timeoutMs: number | undefined): Promise<T> {
  const limits = { ...TRANSACTION_LIMITS, timeout: Math.max(TRANSACTION_LIMITS.timeout, timeoutMs ?? 0) };
  if (isolation === "read-committed" && stateOf(db)?.provider === "postgresql") {
    // The application's client is typed as SQLite's, whose typings name only Serializable.
    const postgres = db as unknown as PostgresPrismaClient;
    return postgres.$transaction((tx) => work(tx as unknown as DbTransaction), { ...limits, isolationLevel: "ReadCommitted" });
  }
  return db.$transaction(work, { ...limits, isolationLevel: "Serializable" });
}

/**
 * Runs a multi-statement write as one transaction, serializable unless asked otherwise. Every
 * multi-statement write in the product goes through here, so contention
 * handling lives in one place.
 *
 * A transaction that fails for contention — SQLite busy, a PostgreSQL
 * serialization failure or deadlock, Prisma's transaction timeouts, and unique
 * violations when asked — was rolled back, and is re-run after a jittered
 * backoff. `work` may therefore run more than once: keep it to database calls
 * on `tx`. After the last attempt a contention failure becomes a
 * DatabaseBusyError (503); any other error is thrown as it is, at once.
 */
export async function writeTransaction<T>(db: Db, work: (tx: DbTransaction) => Promise<T>, options: WriteTransactionOptions = {}): Promise<T> {
  const outer = activeTransaction.getStore();
  if (outer?.open && outer.db === db) {
    // On SQLite this would wait for itself forever (one transaction per process at a time).
    throw new Error("writeTransaction was called inside another writeTransaction on the same client: use the `tx` it hands you");
  }
  const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_ATTEMPTS);
  for (let attempt = 1; ; attempt++) {
    try {
      return await queued(db, () => {
        const scope = { db, open: true };
        return activeTransaction.run(scope, () => runTransaction(db, work, options.isolation, options.timeoutMs).finally(() => (scope.open = false)));
      });
    } catch (error) {
      const reason = retryReason(error);
      if (reason === null || (reason === "unique_violation" && !options.retryOnUniqueViolation)) throw error;
      if (attempt >= maxAttempts) {
        countTransactionGivenUp();
        // A unique violation that outlasts every retry is a real conflict, not load.
        if (reason === "unique_violation") throw error;
        throw new DatabaseBusyError(attempt, error);
      }
      countTransactionRetry(reason);
      await sleep(backoffDelay(attempt - 1, BACKOFF));
    }
  }
}
