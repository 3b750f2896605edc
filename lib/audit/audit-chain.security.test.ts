// The audit log is tamper-evident and append-only on both providers: rows are
// hash-chained, concurrent writers never fork the chain, and the database
// itself refuses updates and deletes.
import { afterAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/prisma";
import { applyMigrations } from "../../scripts/db/migrate";
import { freshPostgres, freshSqlite, postgresReachable, type TestDatabase } from "../../scripts/test-support/databases";
import { appendAudit } from "./write";
import { verifyAuditChain } from "./verify";
import { chainHash } from "./chain";

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

  it("a row without a chain position inserted after the chain began fails verification, named; older ones are only counted", async (ctx) => {
    const db = await open(make);
    if (!db) return ctx.skip();
    // Written before the chain existed (the migration left such rows without a position).
    await db.auditEvent.create({ data: { id: "legacy-row", action: "run.started", target: "run-old", createdAt: new Date("2020-01-01T00:00:00Z") } });
    for (let i = 0; i < 3; i++) await appendAudit(db, { actorId: null, action: "run.started", target: `run-${i}` });
    expect(await verifyAuditChain(db)).toMatchObject({ verified: true, rows: 3, unchained: 1, broken: null });
    // Someone inserts a row straight into the table, outside the chain (inserts are not refused by the triggers).
    await db.auditEvent.create({ data: { id: "forged-row", action: "run.cancelled", target: "run-1" } });
    await appendAudit(db, { actorId: null, action: "run.started", target: "run-3" });
    for (const full of [false, true]) {
      const report = await verifyAuditChain(db, { full });
      expect(report, full ? "full" : "incremental").toMatchObject({ verified: false, rows: 4, unchained: 1, broken: { seq: null, id: "forged-row" } });
      expect(report.broken?.problem).toMatch(/^row forged-row \(run\.cancelled, .*\) has no place in the chain though it was written after the chain began$/);
    }
  });

  it("verification is incremental: a second check hashes only the rows written since the first", async (ctx) => {
    const db = await open(make);
    if (!db) return ctx.skip();
    for (let i = 0; i < 20; i++) await appendAudit(db, { actorId: null, action: "run.started", target: `run-${i}` });
    expect(await verifyAuditChain(db)).toMatchObject({ verified: true, rows: 20, mode: "full", from: 0, hashed: 20 });
    expect(await verifyAuditChain(db), "nothing new: nothing hashed").toMatchObject({ verified: true, rows: 20, mode: "incremental", from: 20, hashed: 0 });
    for (let i = 20; i < 23; i++) await appendAudit(db, { actorId: null, action: "run.started", target: `run-${i}` });
    expect(await verifyAuditChain(db)).toMatchObject({ verified: true, rows: 23, mode: "incremental", from: 20, hashed: 3 });
    expect(await verifyAuditChain(db)).toMatchObject({ verified: true, rows: 23, from: 23, hashed: 0 });
    // On demand, from scratch.
    expect(await verifyAuditChain(db, { full: true })).toMatchObject({ verified: true, rows: 23, mode: "full", from: 0, hashed: 23 });
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
  it("a row edited before the checkpoint is found by a full check, and every check after it keeps naming it", async (ctx) => {
    const db = await open(freshSqlite);
    if (!db) return ctx.skip();
    for (let i = 0; i < 10; i++) await appendAudit(db, { actorId: null, action: "run.started", target: `run-${i}`, details: { i } });
    expect(await verifyAuditChain(db)).toMatchObject({ verified: true, rows: 10, hashed: 10 });
    await db.$executeRawUnsafe(`DROP TRIGGER "audit_events_no_update"`);
    await db.$executeRawUnsafe(`UPDATE "audit_events" SET "details" = '{"i":99}' WHERE "seq" = 3`);
    // The incremental check starts after row 10 and does not re-hash row 3; the full one does.
    expect(await verifyAuditChain(db)).toMatchObject({ verified: true, mode: "incremental", hashed: 0 });
    const full = await verifyAuditChain(db, { full: true });
    expect(full).toMatchObject({ verified: false, mode: "full", broken: { seq: 3, problem: "its content was changed after it was written" } });
    expect(full.broken?.id).toBeTruthy();
    // The break dropped the checkpoint: the next ordinary check starts from scratch and names it again.
    expect(await verifyAuditChain(db)).toMatchObject({ verified: false, mode: "full", broken: { seq: 3 } });
  });

  it("the checkpoint's own row edited: the ordinary check notices, starts from scratch and names it", async (ctx) => {
    const db = await open(freshSqlite);
    if (!db) return ctx.skip();
    for (let i = 0; i < 4; i++) await appendAudit(db, { actorId: null, action: "run.started", target: `run-${i}` });
    expect(await verifyAuditChain(db)).toMatchObject({ verified: true, rows: 4 });
    await db.$executeRawUnsafe(`DROP TRIGGER "audit_events_no_update"`);
    await db.$executeRawUnsafe(`UPDATE "audit_events" SET "target" = 'run-forged' WHERE "seq" = 4`);
    expect(await verifyAuditChain(db)).toMatchObject({ verified: false, mode: "full", hashed: 4, broken: { seq: 4, problem: "its content was changed after it was written" } });
  });

  it("the whole chain rewritten after an edit (head included): the check starts from scratch and still fails", async (ctx) => {
    const db = await open(freshSqlite);
    if (!db) return ctx.skip();
    for (let i = 0; i < 6; i++) await appendAudit(db, { actorId: null, action: "run.started", target: `run-${i}`, details: { i } });
    expect(await verifyAuditChain(db)).toMatchObject({ verified: true, rows: 6 });
    await db.$executeRawUnsafe(`DROP TRIGGER "audit_events_no_update"`);
    // Row 2 edited and every hash after it recomputed, head included: the chain is self-consistent again.
    await db.$executeRawUnsafe(`UPDATE "audit_events" SET "target" = 'run-forged' WHERE "seq" = 2`);
    let prevHash = (await db.auditEvent.findUniqueOrThrow({ where: { seq: 1 } })).hash ?? "";
    for (let seq = 2; seq <= 6; seq++) {
      const row = await db.auditEvent.findUniqueOrThrow({ where: { seq } });
      const hash = chainHash(prevHash, { ...row, seq });
      await db.$executeRawUnsafe(`UPDATE "audit_events" SET "prev_hash" = ?, "hash" = ? WHERE "seq" = ?`, prevHash, hash, seq);
      prevHash = hash;
    }
    await db.auditChainHead.update({ where: { id: 1 }, data: { hash: prevHash } });
    const report = await verifyAuditChain(db);
    expect(report).toMatchObject({ verified: false, mode: "full", hashed: 6, broken: { seq: 6 } });
    expect(report.broken?.problem).toMatch(/not the row verified there before/);
    expect((await verifyAuditChain(db)).verified, "and it stays failed").toBe(false);
  });

  it("rows removed from the end together with the head: the checkpoint remembers where the chain ended", async (ctx) => {
    const db = await open(freshSqlite);
    if (!db) return ctx.skip();
    for (let i = 0; i < 5; i++) await appendAudit(db, { actorId: null, action: "run.started", target: `run-${i}` });
    expect(await verifyAuditChain(db)).toMatchObject({ verified: true, rows: 5 });
    await db.$executeRawUnsafe(`DROP TRIGGER "audit_events_no_delete"`);
    await db.$executeRawUnsafe(`DELETE FROM "audit_events" WHERE "seq" >= 4`);
    const row3 = await db.auditEvent.findUniqueOrThrow({ where: { seq: 3 } });
    await db.auditChainHead.update({ where: { id: 1 }, data: { seq: 3, hash: row3.hash ?? "" } });
    expect(await verifyAuditChain(db)).toMatchObject({ verified: false, broken: { problem: "the chain was verified up to row 5 but now ends at row 3" } });
  });

  it("a changed row, and a row removed from the end, break the chain", async (ctx) => {
    const db = await open(freshSqlite);
    if (!db) return ctx.skip();
    for (let i = 0; i < 5; i++) await appendAudit(db, { actorId: null, action: "run.started", target: `run-${i}`, details: { i } });
    expect(await verifyAuditChain(db)).toMatchObject({ verified: true, rows: 5 });
    // Someone with file access drops the trigger and edits row 3.
    await db.$executeRawUnsafe(`DROP TRIGGER "audit_events_no_update"`);
    await db.$executeRawUnsafe(`UPDATE "audit_events" SET "details" = '{"i":99}' WHERE "seq" = 3`);
    // Row 3 lies before the checkpoint the first check left: the full check finds it.
    expect(await verifyAuditChain(db, { full: true })).toMatchObject({ verified: false, broken: { seq: 3 } });
    await db.$executeRawUnsafe(`DROP TRIGGER "audit_events_no_delete"`);
    await db.$executeRawUnsafe(`DELETE FROM "audit_events" WHERE "seq" >= 3`);
    expect(await verifyAuditChain(db)).toMatchObject({ verified: false, broken: { seq: 3 } });
  });
});
