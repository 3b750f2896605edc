// What counts as database contention, how long to back off, and how often it
// happened. Shared by the SQLite driver wrapper (single statements, BEGIN) and
// writeTransaction (whole transactions); no database access here.
import { AppError } from "../errors";

/** Why a failed database call may be retried; null means it must not be. */
export type RetryReason =
  /** SQLite: another connection holds the write lock, or this transaction's snapshot went stale (SQLITE_BUSY*). */
  | "busy"
  /** PostgreSQL: serialization failure (40001) or deadlock (40P01); the transaction was rolled back. */
  | "conflict"
  /** Prisma gave up waiting for, or on, an interactive transaction (P2028); nothing was committed. */
  | "transaction_timeout"
  /** A unique constraint was hit (P2002, 23505, SQLITE_CONSTRAINT_UNIQUE/PRIMARYKEY): retried only when the caller asks. */
  | "unique_violation";

const SQLITE_BUSY = 5;
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
const SQLITE_CONSTRAINT_UNIQUE = 2067;

interface ErrorFields {
  code?: unknown;
  rawCode?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: unknown;
  driverAdapterError?: unknown;
}

/**
 * Every object an error carries its facts on: Prisma's known request error,
 * its `meta.driverAdapterError`, that error's `cause` (kind, originalCode, code),
 * LibsqlError and its SqliteError cause, pg's DatabaseError.
 */
function errorChain(error: unknown): ErrorFields[] {
  const seen = new Set<unknown>();
  const out: ErrorFields[] = [];
  const visit = (value: unknown, depth: number) => {
    if (depth > 6 || value === null || typeof value !== "object" || seen.has(value)) return;
    seen.add(value);
    const fields = value as ErrorFields;
    out.push(fields);
    visit(fields.cause, depth + 1);
    visit(fields.driverAdapterError, depth + 1);
    if (fields.meta && typeof fields.meta === "object") visit((fields.meta as ErrorFields).driverAdapterError, depth + 1);
  };
  visit(error, 0);
  return out;
}

/** A SQLite result code from a numeric rawCode or a numeric string originalCode ("5", "517"). */
function sqliteCode(fields: ErrorFields): number | undefined {
  if (typeof fields.rawCode === "number") return fields.rawCode;
  if (typeof fields.originalCode === "string" && /^\d+$/.test(fields.originalCode)) return Number(fields.originalCode);
  return undefined;
}

/** True for SQLITE_BUSY and its extended codes (BUSY_RECOVERY, BUSY_SNAPSHOT, BUSY_TIMEOUT), from any layer. */
export function isSqliteBusy(error: unknown): boolean {
  return errorChain(error).some((f) => {
    if (typeof f.code === "string" && f.code.startsWith("SQLITE_BUSY")) return true;
    const code = sqliteCode(f);
    return code !== undefined && (code & 0xff) === SQLITE_BUSY;
  });
}

/**
 * Classifies a failed database call. Only failures that leave nothing committed
 * are retryable: a lost connection or a socket timeout (the commit may have
 * landed) is never retried here.
 */
export function retryReason(error: unknown): RetryReason | null {
  if (isSqliteBusy(error)) return "busy";
  const chain = errorChain(error);
  for (const f of chain) {
    const code = typeof f.code === "string" ? f.code : undefined;
    const original = typeof f.originalCode === "string" ? f.originalCode : undefined;
    if (code === "P2034" || f.kind === "TransactionWriteConflict") return "conflict";
    if (code === "40001" || code === "40P01" || original === "40001" || original === "40P01") return "conflict";
    // Every P2028 raised around an interactive transaction means it never committed
    // (expired, could not start in time, already rolled back); only a second commit
    // of a committed transaction is different, and retrying that would repeat it.
    if (code === "P2028" && !(typeof f.message === "string" && /on a committed transaction/.test(f.message))) return "transaction_timeout";
  }
  for (const f of chain) {
    const code = typeof f.code === "string" ? f.code : undefined;
    if (code === "P2002" || code === "23505" || f.kind === "UniqueConstraintViolation" || f.originalCode === "23505") return "unique_violation";
    const sqlite = sqliteCode(f);
    if (sqlite === SQLITE_CONSTRAINT_UNIQUE || sqlite === SQLITE_CONSTRAINT_PRIMARYKEY) return "unique_violation";
  }
  return null;
}

/** Full-jitter exponential backoff: a random delay in [0, min(cap, base·2^attempt)]. */
export function backoffDelay(attempt: number, options: { baseMs: number; capMs: number }, random: () => number = Math.random): number {
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** Math.max(0, attempt));
  return Math.round(random() * ceiling);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** How much contention this process has absorbed (for tests, benchmarks and logs). */
export interface ContentionStats {
  /** Single SQLite statements or BEGINs re-run after SQLITE_BUSY outlasted the busy timeout. */
  statementRetries: number;
  /** Whole transactions re-run by writeTransaction, by reason. */
  transactionRetries: Record<RetryReason, number>;
  /** Transactions that still failed on a retryable error after the last attempt. */
  transactionsGivenUp: number;
}

const stats: ContentionStats = {
  statementRetries: 0,
  transactionRetries: { busy: 0, conflict: 0, transaction_timeout: 0, unique_violation: 0 },
  transactionsGivenUp: 0,
};

/** A copy of this process's contention counters. */
export function contentionStats(): ContentionStats {
  return { ...stats, transactionRetries: { ...stats.transactionRetries } };
}

export function countStatementRetry(): void {
  stats.statementRetries += 1;
}

export function countTransactionRetry(reason: RetryReason): void {
  stats.transactionRetries[reason] += 1;
}

export function countTransactionGivenUp(): void {
  stats.transactionsGivenUp += 1;
}

/**
 * The database stayed contended through every retry. Shown to people as a
 * temporary condition (503), never as a bug; the original error is the cause.
 */
export class DatabaseBusyError extends AppError {
  constructor(
    readonly attempts: number,
    cause: unknown,
  ) {
    super("unavailable", 503, "The database is busy right now. Please try again in a moment.");
    this.name = "DatabaseBusyError";
    this.cause = cause;
  }
}
