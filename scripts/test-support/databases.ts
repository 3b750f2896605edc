// Fresh, throw-away databases for integration tests: a SQLite file in a temp
// folder, and (when PostgreSQL is reachable) a new PostgreSQL database.
import os from "node:os";
import path from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import pg from "pg";

export interface TestDatabase {
  provider: "sqlite" | "postgresql";
  url: string;
  drop: () => Promise<void>;
  /**
   * A PostgreSQL database copied from the integration run's migrated template (scripts/test-support/postgres-templates.ts)
   * and not yet connected to: the engine harness makes it a copy of the seeded template instead of seeding it.
   */
  fromMigratedTemplate?: string;
}

/** The local PostgreSQL server tried when TEST_DATABASE_URL is unset. */
export const DEFAULT_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/postgres";

/**
 * The PostgreSQL server tests may create databases on: TEST_DATABASE_URL, else the local default. Read at each
 * call, not at import: `npm test` sets TEST_DATABASE_URL after importing this file when it starts an embedded server.
 */
export function postgresAdminUrl(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.TEST_DATABASE_URL ?? DEFAULT_POSTGRES_URL;
}

/** How to get a PostgreSQL for the tests, printed with every local skip. */
export const HOW_TO_GET_POSTGRES =
  "run them through `npm test`, which starts an embedded one when none answers, or start one (e.g. `docker run -d -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:16`, or Debian's `postgresql` package) or point TEST_DATABASE_URL at one";

/**
 * PostgreSQL is promised, not optional, in CI (`CI` set) and whenever TEST_DATABASE_URL names a server:
 * there an unreachable server fails the tests instead of skipping them.
 */
export function postgresRequired(env: Record<string, string | undefined> = process.env): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return (Boolean(ci) && ci !== "false" && ci !== "0") || Boolean(env.TEST_DATABASE_URL);
}

/** The admin URL without its password, for messages. */
export function redactedPostgresUrl(url = postgresAdminUrl()): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(an unparseable TEST_DATABASE_URL)";
  }
}

/**
 * Whether PostgreSQL answers. Unreachable where it is required (postgresRequired): throws an error naming the
 * server and why, so the file (or `npm test`'s set-up) fails; elsewhere: a loud warning and false, and the
 * callers skip their PostgreSQL tests, which the runner names one by one.
 */
export async function postgresReachable(url = postgresAdminUrl()): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch (error) {
    const why = error instanceof Error ? error.message || error.name : String(error);
    if (postgresRequired())
      throw new Error(`PostgreSQL at ${redactedPostgresUrl(url)} is required (${process.env.TEST_DATABASE_URL ? "TEST_DATABASE_URL is set" : "CI is set"}) but unreachable: ${why}`);
    console.warn(`⚠ PostgreSQL at ${redactedPostgresUrl(url)} is unreachable (${why}): its tests are SKIPPED. To run them, ${HOW_TO_GET_POSTGRES}.`);
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function freshSqlite(): Promise<TestDatabase> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "zap-it-db-"));
  return {
    provider: "sqlite",
    url: `file:${path.join(dir, "zap.db")}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A new PostgreSQL database: empty, or a copy of `template` (a database nobody is connected to). */
export async function freshPostgres(options: { template?: string } = {}): Promise<TestDatabase> {
  const name = `zap_test_${randomBytes(6).toString("hex")}`;
  const adminUrl = postgresAdminUrl();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}${options.template ? ` template ${options.template}` : ""}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    provider: "postgresql",
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        // Work a test left running (a worker's last ledger write, a stream's poll) may still have a statement in
        // flight: terminated mid-statement, its promise rejected where nobody listens any more, and vitest failed
        // the whole run on that unhandled 57P01 ("terminating connection due to administrator command"). Give such
        // statements a few seconds to finish; idle connections are ended by the force, their pools listen for it.
        const deadline = Date.now() + 5_000;
        while (Date.now() < deadline) {
          const busy = await client.query("select count(*)::int as n from pg_stat_activity where datname = $1 and state not in ('idle') and pid <> pg_backend_pid()", [name]);
          if ((busy.rows[0] as { n: number } | undefined)?.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

export interface ProviderUnderTest {
  provider: "sqlite" | "postgresql";
  /** False when PostgreSQL cannot be reached: its tests are reported as skipped, not passed. */
  available: boolean;
  create: () => Promise<TestDatabase>;
}

/**
 * The providers database tests run against: SQLite always, PostgreSQL when reachable. Inside the integration run
 * a PostgreSQL database starts as a copy of the migrated template the global setup built (`applyMigrations` on it
 * then finds nothing to do); `{ empty: true }` gives empty ones, for the tests of migrating itself.
 */
export async function testProviders(options: { empty?: boolean } = {}): Promise<ProviderUnderTest[]> {
  const pgUp = await postgresReachable();
  const template = options.empty ? undefined : await providedMigratedTemplate();
  return [
    { provider: "sqlite", available: true, create: freshSqlite },
    {
      provider: "postgresql",
      available: pgUp,
      create: async () => (template ? { ...(await freshPostgres({ template })), fromMigratedTemplate: template } : freshPostgres()),
    },
  ];
}

/** The migrated template's name, when this runs in a vitest worker whose global setup built one. */
async function providedMigratedTemplate(): Promise<string | undefined> {
  // Imported here, not at the top: benches and npm test import this file outside vitest.
  const { inject } = await import("vitest");
  try {
    return inject("postgresTemplates")?.migrated;
  } catch {
    return undefined;
  }
}
