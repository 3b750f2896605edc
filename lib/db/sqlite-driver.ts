// SQLite through libsql, set up for several processes (the web server, the
// worker, scripts) writing one file at once.
//
// What the stock @libsql/client + @prisma/adapter-libsql pair does, and why it
// fails under contention:
// - connections open with busy_timeout 0, so a write that meets another
//   process's lock fails at once with SQLITE_BUSY;
// - the database stays in rollback-journal mode, where a writer blocks readers;
// - Prisma begins interactive transactions DEFERRED: the write lock is taken at
//   the first write, and a transaction that has already read then fails with
//   SQLITE_BUSY or BUSY_SNAPSHOT at once, without waiting;
// - `transaction()` hands its connection to the transaction and lazily opens a
//   new one for the next call, so a PRAGMA set once is lost after the first
//   transaction, and every transaction pays for a new connection (the
//   adapter's mutex holds every other call of the process while a
//   transaction is open, so one connection is in use at a time);
// - libsql (0.3.x, and still upstream: tursodatabase/libsql-client-ts#352)
//   does not reset a statement that failed with SQLITE_BUSY. The connection is
//   poisoned: its later autocommit writes never commit (they vanish when it
//   closes, with no error), and a transaction begun on it cannot COMMIT and
//   keeps the write lock — every process then waits forever.
//
// The client below switches the file to WAL once, sets busy_timeout on every
// connection before its first use, begins transactions IMMEDIATE (the write
// lock up front, so nothing inside a transaction meets a busy lock) on the
// connection it already has, and when a BEGIN or a single statement still
// fails busy, closes that connection (which releases everything it held),
// opens a fresh one and re-runs the call after a jittered, non-blocking pause.
// A transaction whose statement or COMMIT fails closes its connection, so it
// never keeps the lock (a transaction on its own connection cost ~20 % more CPU
// per write: 5.5–7.3 ms against 4.6–5.2 for a transaction and a read, 2026-12-01).
import { createClient, LibsqlError, type Client, type Config, type InStatement, type ResultSet, type Transaction, type TransactionMode } from "@libsql/client";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { backoffDelay, countStatementRetry, isSqliteBusy, sleep } from "./contention";

export interface SqliteContentionOptions {
  /**
   * SQLite's own wait for a lock, per statement. libsql is synchronous, so this
   * wait blocks the process's event loop, and SQLite polls in ever longer sleeps
   * (up to 100 ms) that a sleeper loses to a writer that is awake: short waits
   * here plus the non-blocking retry below move the most writes (measured with
   * three writing processes: 10 ms ≈ 2–4 s, 50 ms ≈ 4–8 s, 1–5 s ≈ 10–14 s for
   * the same work).
   */
  busyTimeoutMs: number;
  /** How long a BEGIN or a single statement keeps retrying on SQLITE_BUSY before the error is raised. */
  busyDeadlineMs: number;
  backoff: { baseMs: number; capMs: number };
}

export const SQLITE_CONTENTION_DEFAULTS: SqliteContentionOptions = {
  busyTimeoutMs: 10,
  busyDeadlineMs: 10_000,
  backoff: { baseMs: 2, capMs: 50 },
};

/**
 * A transaction on the client's own connection. libsql's `transaction()` hands its connection to the transaction and
 * opens a new one for the next call, leaving the old one to the garbage collector: every transaction then paid for
 * opening the file, reading the schema anew and the PRAGMAs. The adapter holds every other call of the process while
 * a transaction is open, so the connection is the transaction's until it ends. A statement that fails inside it may
 * leave that connection poisoned (see above): the transaction is rolled back and the connection replaced.
 */
class ConnectionTransaction implements Transaction {
  readonly #connection: Client;
  readonly #replaceConnection: () => void;
  #open = true;

  constructor(connection: Client, replaceConnection: () => void) {
    this.#connection = connection;
    this.#replaceConnection = replaceConnection;
  }

  get closed(): boolean {
    return !this.#open;
  }

  #checkOpen(): void {
    if (!this.#open) throw new LibsqlError("The transaction is closed", "TRANSACTION_CLOSED");
  }

  /**
   * Ends the transaction after a failed statement. ROLLBACK first: it releases the write lock even while the failed
   * statement is left unreset, where closing the connection alone would keep the lock until that statement is
   * collected (a later BEGIN IMMEDIATE then waited for it). Then a fresh connection, as the poisoned one is never safe.
   */
  async #abandon(): Promise<void> {
    if (!this.#open) return;
    this.#open = false;
    await this.#connection.execute("ROLLBACK").catch(() => undefined);
    this.#replaceConnection();
  }

  async #run<T>(call: () => Promise<T>): Promise<T> {
    this.#checkOpen();
    try {
      return await call();
    } catch (error) {
      await this.#abandon();
      throw error;
    }
  }

  execute(statement: InStatement): Promise<ResultSet> {
    return this.#run(() => this.#connection.execute(statement));
  }

  async batch(statements: InStatement[]): Promise<ResultSet[]> {
    // The client's own batch would begin a transaction of its own: inside this one, the statements run in turn.
    const results: ResultSet[] = [];
    for (const statement of statements) results.push(await this.execute(statement));
    return results;
  }

  executeMultiple(sql: string): Promise<void> {
    return this.#run(() => this.#connection.executeMultiple(sql));
  }

  async commit(): Promise<void> {
    await this.#run(() => this.#connection.execute("COMMIT"));
    this.#open = false;
  }

  async rollback(): Promise<void> {
    if (!this.#open) return;
    await this.#run(() => this.#connection.execute("ROLLBACK"));
    this.#open = false;
  }

  close(): void {
    void this.#abandon();
  }
}

/**
 * A libsql client that survives other processes writing the same file. The
 * top-level calls are wrapped; a transaction, once begun IMMEDIATE, holds the
 * write lock and runs on its own connection.
 */
class ContendedSqliteClient implements Client {
  readonly #config: Config;
  readonly #options: SqliteContentionOptions;
  #inner: Client;
  /** The inner client's current connection has not had its PRAGMAs yet. */
  #fresh = true;
  #walChecked = false;

  constructor(config: Config, options: SqliteContentionOptions) {
    this.#config = config;
    this.#options = options;
    this.#inner = createClient(config);
  }

  get closed(): boolean {
    return this.#inner.closed;
  }

  get protocol(): string {
    return this.#inner.protocol;
  }

  /** Sets the busy timeout on the connection the next call will use, and WAL on the file (persistent, so once). */
  async #prepareConnection(): Promise<void> {
    if (!this.#fresh) return;
    await this.#inner.execute(`PRAGMA busy_timeout = ${Math.max(0, Math.round(this.#options.busyTimeoutMs))}`);
    // In WAL, NORMAL syncs at checkpoints rather than at every commit: a commit stays atomic and survives a crash of
    // any process, and only an operating-system crash or power loss can lose the last commits (never corrupt the
    // file) — SQLite's recommended pairing with WAL, and what the local Temporal dev server does. Each write then
    // costs ~20 % less CPU and ~30 % less time (500 Prisma writes, 2 cores, 2026-11-30); PostgreSQL is the path
    // for deployments that need every commit on disk. Per connection, so on every fresh one.
    await this.#inner.execute("PRAGMA synchronous = NORMAL");
    // Switching to WAL needs a moment without other writers; in-memory databases answer "memory".
    if (!this.#walChecked) await this.#inner.execute("PRAGMA journal_mode = WAL");
    this.#walChecked = true;
    this.#fresh = false;
  }

  /** Drops a connection poisoned by SQLITE_BUSY (see above); closing it releases its snapshot and locks. */
  #replaceConnection(): void {
    const poisoned = this.#inner;
    this.#inner = createClient(this.#config);
    this.#fresh = true;
    try {
      poisoned.close();
    } catch {
      // Closing is best effort: the connection is never used again either way.
    }
  }

  /**
   * Runs `call` on a prepared connection; while it fails with SQLITE_BUSY, swaps
   * the connection and re-runs it after a jittered pause, until the deadline.
   * Only for calls that change nothing when they fail busy: an autocommit
   * statement, a BEGIN, a batch (one transaction, rolled back on error).
   */
  async #withRetry<T>(call: (inner: Client) => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.#options.busyDeadlineMs;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.#prepareConnection();
        return await call(this.#inner);
      } catch (error) {
        if (!isSqliteBusy(error)) throw error;
        this.#replaceConnection();
        if (Date.now() >= deadline) throw error;
        countStatementRetry();
        await sleep(backoffDelay(attempt, this.#options.backoff));
      }
    }
  }

  execute(statement: InStatement): Promise<ResultSet> {
    return this.#withRetry((inner) => inner.execute(statement));
  }

  batch(statements: InStatement[], mode: TransactionMode = "write"): Promise<ResultSet[]> {
    return this.#withRetry((inner) => inner.batch(statements, mode === "read" ? "read" : "write"));
  }

  async transaction(mode: TransactionMode = "write"): Promise<Transaction> {
    // BEGIN IMMEDIATE takes the write lock now or fails as a whole.
    await this.#withRetry((inner) => inner.execute(mode === "read" ? "BEGIN TRANSACTION READONLY" : "BEGIN IMMEDIATE"));
    return new ConnectionTransaction(this.#inner, () => this.#replaceConnection());
  }

  async executeMultiple(sql: string): Promise<void> {
    await this.#prepareConnection();
    // A script may have run partly before failing, so it is never re-run here.
    return this.#inner.executeMultiple(sql);
  }

  sync(): Promise<void> {
    return this.#inner.sync();
  }

  close(): void {
    this.#inner.close();
  }
}

/** @prisma/adapter-libsql with the contention-safe client above. */
class ContendedPrismaLibSQL extends PrismaLibSQL {
  readonly #options: SqliteContentionOptions;

  constructor(config: Config, options: SqliteContentionOptions) {
    super(config);
    this.#options = options;
  }

  override createClient(config: Config): Client {
    return new ContendedSqliteClient(config, this.#options);
  }
}

/** The Prisma driver adapter for a SQLite `file:` URL, safe for several writing processes. */
export function createSqliteAdapter(url: string, options: Partial<SqliteContentionOptions> = {}): PrismaLibSQL {
  return new ContendedPrismaLibSQL({ url }, { ...SQLITE_CONTENTION_DEFAULTS, ...options });
}
