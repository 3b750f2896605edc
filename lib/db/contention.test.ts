// Which database failures are retried, built in the shapes the drivers really
// produce (captured from @prisma/adapter-libsql, @prisma/adapter-pg and Prisma
// 6.19's transaction manager).
import { describe, expect, it } from "vitest";
import { Prisma } from "./generated/sqlite/client";
import { backoffDelay, isSqliteBusy, retryReason } from "./contention";
import { AppError } from "../errors";

/** Prisma's error for a driver failure: the adapter's error rides in meta.driverAdapterError. */
function prismaError(code: string, message: string, cause?: Record<string, unknown>) {
  const meta = cause ? { modelName: "LedgerAccount", driverAdapterError: driverAdapterError(cause) } : {};
  return new Prisma.PrismaClientKnownRequestError(message, { code, clientVersion: "6.19.3", meta });
}

/** What the adapters throw (DriverAdapterError): its facts are a plain object in `cause`. */
function driverAdapterError(cause: Record<string, unknown>) {
  return Object.assign(new Error(String(cause.kind)), { name: "DriverAdapterError", cause });
}

/** @libsql/client's LibsqlError around libsql's SqliteError, as thrown from a COMMIT or BEGIN. */
function libsqlError(code: string, rawCode: number) {
  const sqlite = Object.assign(new Error("database is locked"), { name: "SqliteError", code, rawCode });
  return Object.assign(new Error(`${code}: database is locked`, { cause: sqlite }), { name: "LibsqlError", code, rawCode });
}

describe("retryReason", () => {
  it.each([
    ["a busy statement (P1008 from SQLITE_BUSY)", prismaError("P1008", "Operation has timed out", { originalCode: "5", originalMessage: "database is locked", kind: "SocketTimeout" })],
    ["a stale snapshot (SQLITE_BUSY_SNAPSHOT, 517)", prismaError("P1008", "Operation has timed out", { originalCode: "517", kind: "SocketTimeout" })],
    ["a busy COMMIT or BEGIN (raw LibsqlError)", libsqlError("SQLITE_BUSY", 5)],
    ["a raw busy snapshot", libsqlError("SQLITE_BUSY_SNAPSHOT", 517)],
  ])("retries %s as busy", (_, error) => {
    expect(retryReason(error)).toBe("busy");
  });

  it.each([
    ["a serialization failure (P2034)", prismaError("P2034", "Transaction failed due to a write conflict or a deadlock.", { originalCode: "40001", kind: "TransactionWriteConflict" })],
    ["a serialization failure at COMMIT (raw adapter error)", driverAdapterError({ originalCode: "40001", kind: "TransactionWriteConflict" })],
    ["a deadlock (40P01, raw adapter error)", driverAdapterError({ originalCode: "40P01", kind: "postgres", code: "40P01", message: "deadlock detected" })],
  ])("retries %s as a conflict", (_, error) => {
    expect(retryReason(error)).toBe("conflict");
  });

  it.each([
    ["a transaction that expired", "Transaction API error: A query cannot be executed on an expired transaction. The timeout for this transaction was 5000 ms"],
    ["a transaction that could not start in time", "Transaction API error: Unable to start a transaction in the given time."],
    ["a transaction already rolled back", "Transaction API error: Transaction already closed: A query cannot be executed on a transaction that was rolled back."],
  ])("retries %s (P2028): nothing was committed", (_, message) => {
    expect(retryReason(prismaError("P2028", message))).toBe("transaction_timeout");
  });

  it("never retries a second commit of a committed transaction", () => {
    expect(retryReason(prismaError("P2028", "Transaction API error: Transaction already closed: A commit cannot be executed on a committed transaction."))).toBeNull();
  });

  it.each([
    ["PostgreSQL (P2002)", prismaError("P2002", "Unique constraint failed on the fields: (`id`)", { originalCode: "23505", kind: "UniqueConstraintViolation" })],
    ["SQLite (P2002)", prismaError("P2002", "Unique constraint failed", { originalCode: "2067", kind: "UniqueConstraintViolation" })],
    ["SQLite, raw (SQLITE_CONSTRAINT_PRIMARYKEY)", libsqlError("SQLITE_CONSTRAINT_PRIMARYKEY", 1555)],
  ])("names a unique violation on %s (retried only when the caller asks)", (_, error) => {
    expect(retryReason(error)).toBe("unique_violation");
  });

  it.each([
    ["a PostgreSQL socket timeout (the commit may have landed)", prismaError("P1008", "Operation has timed out", { kind: "SocketTimeout" })],
    ["a closed connection", prismaError("P1017", "Server has closed the connection.", { kind: "ConnectionClosed" })],
    ["a foreign key violation", prismaError("P2003", "Foreign key constraint violated", { originalCode: "787", kind: "ForeignKeyConstraintViolation" })],
    ["a missing record", prismaError("P2025", "No record was found for an update.")],
    ["a full disk", libsqlError("SQLITE_FULL", 13)],
    ["an application error", new AppError("not_found", 404, 'There is no user with id "u"')],
    ["a plain error", new Error("boom")],
    ["a thrown string", "boom"],
    ["undefined", undefined],
  ])("does not retry %s", (_, error) => {
    expect(retryReason(error)).toBeNull();
  });

  it("follows causes without looping on a cycle", () => {
    const a: { message: string; cause?: unknown } = { message: "a" };
    a.cause = { message: "b", cause: a };
    expect(retryReason(a)).toBeNull();
    expect(isSqliteBusy({ message: "wrapper", cause: libsqlError("SQLITE_BUSY", 5) })).toBe(true);
  });
});

describe("backoffDelay", () => {
  const options = { baseMs: 10, capMs: 1_000 };

  it("grows exponentially up to the cap, with full jitter", () => {
    expect([0, 1, 2, 3, 10].map((attempt) => backoffDelay(attempt, options, () => 1))).toEqual([10, 20, 40, 80, 1_000]);
    expect(backoffDelay(5, options, () => 0)).toBe(0);
    expect(backoffDelay(5, options, () => 0.5)).toBe(160);
  });
});
