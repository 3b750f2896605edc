// Migrations from empty, on SQLite and PostgreSQL, against the one schema; and
// a restart (a new client on the same database) keeps users and data.
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, committedMigrations } from "./migrate";
import { diffSchemas, isEmptyMigration, SNAPSHOT_PATH } from "./new-migration";
import { readCanonicalSchema } from "./schemas";
import { testProviders, type TestDatabase } from "../test-support/databases";
import { executeScript, schemaShape } from "../test-support/schema-shape";
import { createDb } from "../../lib/db/prisma";
import { seedDatabase } from "../../lib/seed/seed";
import { DEMO_USERS } from "../../lib/auth/demo-users";
import { DEMO_AGENT_GRAPHS } from "../../lib/agents/demo";
import { verifyPassword } from "../../lib/auth/passwords";

const providers = await testProviders({ empty: true });

// Every describe side by side (describe.concurrent): most of the time is Prisma CLI processes, one core each. A
// provider's tests run in order (sequential): each goes on from the database the one before left.
describe.concurrent("committed migrations match prisma/schema.prisma", () => {
  it.each(["sqlite", "postgresql"] as const)("%s: no change is waiting for `npm run db:migration`", async (provider) => {
    const snapshot = await readFile(SNAPSHOT_PATH, "utf8");
    const pending = await diffSchemas(provider, snapshot, await readCanonicalSchema());
    expect(isEmptyMigration(pending), `schema.prisma changed since the last migration; run \`npm run db:migration -- <name>\`:\n${pending}`).toBe(true);
  });

  it("both providers have the same migration names", async () => {
    expect(await committedMigrations("postgresql")).toEqual(await committedMigrations("sqlite"));
  });
});

describe.concurrent.each(providers)("$provider database", ({ provider, available, create }) => {
  let migrated: TestDatabase;
  let reference: TestDatabase;

  beforeAll(async () => {
    if (!available) return;
    migrated = await create();
    reference = await create();
  });
  afterAll(async () => {
    await migrated?.drop();
    await reference?.drop();
  });

  it.skipIf(!available).sequential("migrates from empty to exactly the schema's structure", async () => {
    const report = await applyMigrations(migrated.url);
    expect(report.applied).toEqual(await committedMigrations(provider));

    // Reference: the schema applied directly (no migrations) to another empty database.
    const sql = await diffSchemas(provider, null, await readCanonicalSchema());
    await executeScript(reference, sql);

    const [actual, expected] = [await schemaShape(migrated), await schemaShape(reference)];
    expect(Object.keys(actual)).toEqual(expect.arrayContaining(["users", "accounts", "audit_events"]));
    expect(actual).toEqual(expected);
  });

  it.skipIf(!available).sequential("applying again changes nothing", async () => {
    const again = await applyMigrations(migrated.url);
    expect(again.applied).toEqual([]);
  });

  it.skipIf(!available).sequential("seeds demo users once, and a restart keeps users and changes", async () => {
    const first = createDb(migrated.url);
    expect(await seedDatabase(first, { demo: true })).toEqual({ seeded: true, users: DEMO_USERS.length, agents: DEMO_AGENT_GRAPHS.length });
    const viewer = await first.user.update({ where: { email: "viewer@zap.local" }, data: { role: "approver" } });
    await first.auditEvent.create({ data: { actorId: viewer.id, action: "test.marker" } });
    await first.$disconnect();

    // A new process: new client, migrations and seed run again as `npm start` does.
    await applyMigrations(migrated.url);
    const second = createDb(migrated.url);
    try {
      expect(await seedDatabase(second, { demo: true })).toEqual({ seeded: false, users: DEMO_USERS.length, agents: 0 });
      expect(await second.agentVersion.count()).toBe(DEMO_AGENT_GRAPHS.length);
      expect((await second.user.findUniqueOrThrow({ where: { email: "viewer@zap.local" } })).role).toBe("approver");
      expect(await second.auditEvent.count({ where: { action: "test.marker" } })).toBe(1);
      const admin = await second.user.findUniqueOrThrow({ where: { email: "admin@zap.local" }, omit: { passwordHash: false } });
      expect(await verifyPassword("admin-demo", admin.passwordHash ?? "")).toBe(true);
      const plain = await second.user.findUniqueOrThrow({ where: { email: "admin@zap.local" } });
      expect(plain).not.toHaveProperty("passwordHash");
    } finally {
      await second.$disconnect();
    }
  });
});
