// A viewer reads the audit log through the API: every kind of event is listed
// (filtered by action and person, paged). Verifying the chain is for admins
// (viewers, builders and approvers get 403); it is incremental, and once
// someone with file access edits a row or slips one in outside the chain, the
// verify route names the entry.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import type { SessionUser } from "@/lib/auth/server/session";
import type { Permission, Role } from "@/lib/access/roles";
import { createDb, type Db } from "@/lib/db/prisma";
import { applyMigrations } from "@/scripts/db/migrate";
import { freshSqlite, type TestDatabase } from "@/scripts/test-support/databases";
import { appendAudit } from "@/lib/audit/write";

let viewer: SessionUser;
/** Who the next request is from (the viewer unless a test says otherwise). */
let current: () => SessionUser = () => viewer;
// The real role check (can + ForbiddenError, as requireUser does), with the session user chosen by the test.
vi.mock("@/lib/auth/server/session", async () => {
  const { can } = await import("@/lib/access/roles");
  const { ForbiddenError } = await import("@/lib/errors");
  return {
    requireUser: vi.fn(async (permission: Permission = "read") => {
      const user = current();
      if (!can(user.role, permission)) throw new ForbiddenError(`This needs the "${permission}" permission, which the ${user.role} role does not have`);
      return user;
    }),
  };
});

const { GET: verifyRoute } = await import("./verify/route");
const { GET: eventsRoute } = await import("./route");

const holder = globalThis as typeof globalThis & { zapDb?: unknown };
let database: TestDatabase;
let db: Db;
let ann: { id: string; email: string };
let admin: SessionUser;

beforeAll(async () => {
  database = await freshSqlite();
  await applyMigrations(database.url);
  db = createDb(database.url);
  holder.zapDb = db;
  ann = await db.user.create({ data: { email: `ann-${Date.now()}@zap.local`, name: "Ann", role: "builder" }, select: { id: true, email: true } });
  const v = await db.user.create({ data: { email: `viewer-${Date.now()}@zap.local`, name: "Vic", role: "viewer" } });
  viewer = { id: v.id, email: v.email, name: v.name, role: "viewer" };
  const a = await db.user.create({ data: { email: `admin-${Date.now()}@zap.local`, name: "Ada", role: "admin" } });
  admin = { id: a.id, email: a.email, name: a.name, role: "admin" };
  for (let i = 0; i < 7; i++) await appendAudit(db, { actorId: ann.id, action: "run.started", target: `run-${i}` });
  await appendAudit(db, { actorId: ann.id, action: "agent.archived", target: "old-agent" });
  await appendAudit(db, { actorId: null, action: "seed.demo_users" });
});

afterAll(async () => {
  delete holder.zapDb;
  await db?.$disconnect();
  await database?.drop();
});

const get = (path: string) => new NextRequest(`http://127.0.0.1${path}`, { headers: { host: "127.0.0.1" } });
const noParams = { params: Promise.resolve({} as Record<string, never>) };

describe("the audit API", () => {
  it("lists every kind of event, filtered by action and person, newest first and paged", async () => {
    const all = await (await eventsRoute(get("/api/audit?pageSize=4"), noParams)).json();
    expect(all.total).toBeGreaterThanOrEqual(9);
    expect(all.rows).toHaveLength(4);
    expect(all.rows[0]).toMatchObject({ action: "seed.demo_users", actor: null });
    expect(all.rows[1]).toMatchObject({ action: "agent.archived", actor: ann.email, target: "old-agent" });

    const archived = await (await eventsRoute(get("/api/audit?action=agent.archived"), noParams)).json();
    expect(archived.rows.map((r: { target: string }) => r.target)).toEqual(["old-agent"]);

    const byAnn = await (await eventsRoute(get(`/api/audit?person=ann-&pageSize=5&page=2`), noParams)).json();
    expect(byAnn).toMatchObject({ total: 8, page: 2, pageSize: 5 });
    expect(byAnn.rows).toHaveLength(3);

    const unknown = await eventsRoute(get("/api/audit?action=run.exploded"), noParams);
    expect(unknown.status, "an action not in AUDIT_ACTIONS").toBe(422);
  });

  it("viewers, builders and approvers may not verify the chain (403); an admin may", async () => {
    for (const role of ["viewer", "builder", "approver"] as const satisfies readonly Role[]) {
      current = () => ({ ...viewer, role });
      for (const path of ["/api/audit/verify", "/api/audit/verify?full=1"]) {
        const response = await verifyRoute(get(path), noParams);
        expect(response.status, `${role} ${path}`).toBe(403);
        expect((await response.json()).error.code).toBe("forbidden");
      }
    }
    current = () => admin;
    expect((await verifyRoute(get("/api/audit/verify"), noParams)).status).toBe(200);
  });

  it("an admin's checks are incremental: the second hashes only the rows written since the first; ?full=1 hashes them all", async () => {
    current = () => admin;
    const first = await (await verifyRoute(get("/api/audit/verify?full=1"), noParams)).json();
    expect(first).toMatchObject({ verified: true, mode: "full", from: 0, hashed: first.rows });
    await appendAudit(db, { actorId: ann.id, action: "run.started", target: "run-new" });
    expect(await (await verifyRoute(get("/api/audit/verify"), noParams)).json()).toMatchObject({ verified: true, mode: "incremental", from: first.rows, rows: first.rows + 1, hashed: 1 });
  });

  it("verifies the chain, and names the entry someone changed behind the app's back", async () => {
    current = () => admin;
    expect(await (await verifyRoute(get("/api/audit/verify?full=1"), noParams)).json()).toMatchObject({ verified: true, broken: null });
    const target = await db.auditEvent.findFirstOrThrow({ where: { target: "run-3" }, select: { seq: true } });
    await db.$executeRawUnsafe(`DROP TRIGGER "audit_events_no_update"`);
    await db.$executeRawUnsafe(`UPDATE "audit_events" SET "actor_id" = NULL WHERE "target" = 'run-3'`);
    // Row run-3 lies before the checkpoint the check above left: a full check is the one that re-hashes it.
    const report = await (await verifyRoute(get("/api/audit/verify?full=1"), noParams)).json();
    expect(report).toMatchObject({ verified: false, broken: { seq: target.seq, problem: "its content was changed after it was written" } });
  });
});

describe("a row slipped into the audit table outside the chain", () => {
  it("fails the check, named, instead of being counted as an old unchained row", async () => {
    const fresh = await freshSqlite();
    await applyMigrations(fresh.url);
    const other = createDb(fresh.url);
    holder.zapDb = other;
    try {
      current = () => admin;
      await appendAudit(other, { actorId: null, action: "run.started", target: "run-a" });
      expect(await (await verifyRoute(get("/api/audit/verify"), noParams)).json()).toMatchObject({ verified: true, unchained: 0 });
      await other.auditEvent.create({ data: { id: "slipped-in", action: "approval.endorsed", target: "run-a/approval-1" } });
      const report = await (await verifyRoute(get("/api/audit/verify"), noParams)).json();
      expect(report).toMatchObject({ verified: false, unchained: 0, broken: { seq: null, id: "slipped-in" } });
      expect(report.broken.problem).toContain("row slipped-in (approval.endorsed");
    } finally {
      holder.zapDb = db;
      await other.$disconnect();
      await fresh.drop();
    }
  });
});
