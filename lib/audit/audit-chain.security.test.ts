// The audit log is tamper-evident and append-only on both providers: rows are
// hash-chained, concurrent writers never fork the chain, and the database
// itself refuses updates and deletes.
import { afterAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/prisma";
import { applyMigrations } from "../../scripts/db/migrate";
import { freshPostgres, freshSqlite, postgresReachable, type TestDatabase } from "../../scripts/test-support/databases";
import { appendAudit } from "./write";
import { verifyAuditChain } from "./verify";

const databases: { db: Db; database: TestDatabase }[] = [];

async function open(make: () => Promise<TestDatabase | null>): Promise<Db | null> {
  const database = await make();
  if (!database) return null;
  await applyMigrations(database.url);
  const db = createDb(database.url);
  databases.push({ db, database });
  return db;
}

afterAll(async () => {
  for (const { db, database } of databases) {
    await db.$disconnect();
    await database.drop();
  }
});

const pgUp = await postgresReachable();

describe.each([
  ["sqlite", freshSqlite],
  ["postgresql", async () => (pgUp ? freshPostgres() : null)],
] as const)("audit chain on %s", (_provider, make) => {
  it("50 concurrent writers extend one chain that verifies", async (ctx) => {
    const db = await open(make);
    if (!db) return ctx.skip();
    await Promise.all(Array.from({ length: 50 }, (_, i) => appendAudit(db, { actorId: null, action: "run.started", target: `run-${i}`, details: { i } })));
    // A retried write with the same id is written once.
    await appendAudit(db, { id: "fixed-id", actorId: null, action: "run.cancelled", target: "run-x" });
    await appendAudit(db, { id: "fixed-id", actorId: null, action: "run.cancelled", target: "run-x" });
    const report = await verifyAuditChain(db);
    expect(report).toMatchObject({ verified: true, rows: 51, broken: null });
    const seqs = (await db.auditEvent.findMany({ select: { seq: true }, orderBy: { seq: "asc" } })).map((r) => r.seq);
    expect(seqs).toEqual(Array.from({ length: 51 }, (_, i) => i + 1));
  });

  it("the database refuses to update or delete an audit row", async (ctx) => {
    const db = await open(make);
    if (!db) return ctx.skip();
    await appendAudit(db, { id: "kept", actorId: null, action: "run.started", target: "run-1" });
    // SQLite's trigger error reaches Prisma as a constraint violation, PostgreSQL's with its message: either way it is refused.
    await expect(db.auditEvent.update({ where: { id: "kept" }, data: { target: "run-2" } })).rejects.toThrow();
    await expect(db.auditEvent.delete({ where: { id: "kept" } })).rejects.toThrow();
    expect(await db.auditEvent.findUnique({ where: { id: "kept" }, select: { target: true } })).toEqual({ target: "run-1" });
    expect((await verifyAuditChain(db)).verified).toBe(true);
  });
});

describe("tampering is detected", () => {
  it("a changed row, and a row removed from the end, break the chain", async (ctx) => {
    const db = await open(freshSqlite);
    if (!db) return ctx.skip();
    for (let i = 0; i < 5; i++) await appendAudit(db, { actorId: null, action: "run.started", target: `run-${i}`, details: { i } });
    expect(await verifyAuditChain(db)).toMatchObject({ verified: true, rows: 5 });
    // Someone with file access drops the trigger and edits row 3.
    await db.$executeRawUnsafe(`DROP TRIGGER "audit_events_no_update"`);
    await db.$executeRawUnsafe(`UPDATE "audit_events" SET "details" = '{"i":99}' WHERE "seq" = 3`);
    expect(await verifyAuditChain(db)).toMatchObject({ verified: false, broken: { seq: 3 } });
    await db.$executeRawUnsafe(`DROP TRIGGER "audit_events_no_delete"`);
    await db.$executeRawUnsafe(`DELETE FROM "audit_events" WHERE "seq" >= 3`);
    expect(await verifyAuditChain(db)).toMatchObject({ verified: false, broken: { seq: 3 } });
  });
});
