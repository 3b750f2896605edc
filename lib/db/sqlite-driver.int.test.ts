// The SQLite driver against a lock held by another connection for longer than
// the busy timeout: writes wait and land — visible to every other connection
// and still there after the client closes (libsql leaves a connection whose
// statement failed busy unable to commit, so the driver must not reuse it).
import { createClient, type Client } from "@libsql/client";
import { afterEach, describe, expect, it } from "vitest";
import { createDb, type Db } from "./prisma";
import { writeTransaction } from "./transactions";
import { contentionStats } from "./contention";
import { applyMigrations } from "../../scripts/db/migrate";
import { freshSqlite, type TestDatabase } from "../../scripts/test-support/databases";

/** Audit events per action, read through a connection of its own. */
async function auditCounts(url: string): Promise<Record<string, number>> {
  const reader = createClient({ url });
  try {
    const result = await reader.execute("select action, count(*) as n from audit_events group by action");
    return Object.fromEntries(result.rows.map((row) => [String(row.action), Number(row.n)]));
  } finally {
    reader.close();
  }
}

describe("SQLite driver under a held write lock", () => {
  let database: TestDatabase | undefined;
  let db: Db | undefined;
  let holder: Client | undefined;

  afterEach(async () => {
    holder?.close();
    await db?.$disconnect();
    await database?.drop();
  });

  it("waits for the lock without blocking, then commits writes every connection sees", async () => {
    database = await freshSqlite();
    await applyMigrations(database.url);
    db = createDb(database.url);
    await db.auditEvent.count(); // opens the file in WAL mode

    holder = createClient({ url: database.url });
    const held = await holder.transaction("write");
    await held.execute("insert into audit_events (id, action, details, created_at) values ('held', 'held', '{}', 0)");
    const retriesBefore = contentionStats().statementRetries;

    const single = db.auditEvent.create({ data: { action: "single" } });
    const transaction = writeTransaction(db, async (tx) => {
      await tx.auditEvent.create({ data: { action: "transaction" } });
      return tx.auditEvent.create({ data: { action: "transaction" } });
    });
    // The event loop keeps turning while the writes wait: this 300 ms timer fires long before the 10 s retry
    // deadline that writes retried by blocking the loop would hold it for (3 s: ten times the timer, for a loaded machine).
    const timerStarted = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(Date.now() - timerStarted, "the waiting writes do not block the event loop for long").toBeLessThan(3_000);
    await held.commit();

    await Promise.all([single, transaction]);
    await db.auditEvent.create({ data: { action: "later" } });
    expect(contentionStats().statementRetries - retriesBefore, "the writes had to retry past the busy timeout").toBeGreaterThan(0);
    const expected = { held: 1, single: 1, transaction: 2, later: 1 };
    expect(await auditCounts(database.url), "another connection sees every acknowledged row").toEqual(expected);
    await db.$disconnect();
    expect(await auditCounts(database.url), "the rows survive the client closing").toEqual(expected);
  });

  it("sets WAL, the busy timeout and synchronous NORMAL on every connection, also the one opened after a transaction", async () => {
    database = await freshSqlite();
    await applyMigrations(database.url);
    db = createDb(database.url);
    const pragmas = async (): Promise<{ journal: unknown; synchronous: unknown; busy: unknown }> => {
      const [journal] = await db!.$queryRawUnsafe<{ journal_mode: unknown }[]>("PRAGMA journal_mode");
      const [synchronous] = await db!.$queryRawUnsafe<{ synchronous: unknown }[]>("PRAGMA synchronous");
      const [busy] = await db!.$queryRawUnsafe<{ timeout: unknown }[]>("PRAGMA busy_timeout");
      return { journal: journal?.journal_mode, synchronous: Number(synchronous?.synchronous), busy: Number(busy?.timeout) };
    };
    // synchronous: 1 is NORMAL (2, FULL, is SQLite's default): commits sync at checkpoints, not each one.
    const expected = { journal: "wal", synchronous: 1, busy: 10 };
    expect(await pragmas()).toEqual(expected);
    // A transaction takes the client's connection; the next call opens a fresh one, which must be set up the same way.
    await writeTransaction(db, (tx) => tx.auditEvent.create({ data: { action: "in-transaction" } }));
    expect(await pragmas()).toEqual(expected);
  });
});
