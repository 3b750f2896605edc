// A viewer checks the audit log through the API: the chain verifies, every kind
// of event is listed (filtered by action and person, paged), and once someone
// with file access edits a row, the verify route names the broken entry.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import type { SessionUser } from "@/lib/auth/server/session";
import { createDb, type Db } from "@/lib/db/prisma";
import { applyMigrations } from "@/scripts/db/migrate";
import { freshSqlite, type TestDatabase } from "@/scripts/test-support/databases";
import { appendAudit } from "@/lib/audit/write";

let viewer: SessionUser;
vi.mock("@/lib/auth/server/session", () => ({ requireUser: vi.fn(async () => viewer) }));

const { GET: verifyRoute } = await import("./verify/route");
const { GET: eventsRoute } = await import("./route");

const holder = globalThis as typeof globalThis & { zapDb?: unknown };
let database: TestDatabase;
let db: Db;
let ann: { id: string; email: string };

beforeAll(async () => {
  database = await freshSqlite();
  await applyMigrations(database.url);
  db = createDb(database.url);
  holder.zapDb = db;
  ann = await db.user.create({ data: { email: `ann-${Date.now()}@zap.local`, name: "Ann", role: "builder" }, select: { id: true, email: true } });
  const v = await db.user.create({ data: { email: `viewer-${Date.now()}@zap.local`, name: "Vic", role: "viewer" } });
  viewer = { id: v.id, email: v.email, name: v.name, role: "viewer" };
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

  it("verifies the chain, and names the entry someone changed behind the app's back", async () => {
    expect(await (await verifyRoute(get("/api/audit/verify"), noParams)).json()).toMatchObject({ verified: true, broken: null });
    const target = await db.auditEvent.findFirstOrThrow({ where: { target: "run-3" }, select: { seq: true } });
    await db.$executeRawUnsafe(`DROP TRIGGER "audit_events_no_update"`);
    await db.$executeRawUnsafe(`UPDATE "audit_events" SET "actor_id" = NULL WHERE "target" = 'run-3'`);
    const report = await (await verifyRoute(get("/api/audit/verify"), noParams)).json();
    expect(report).toMatchObject({ verified: false, broken: { seq: target.seq, problem: "its content was changed after it was written" } });
  });
});
