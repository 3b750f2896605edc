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
}

/** The PostgreSQL server tests may create databases on: TEST_DATABASE_URL, else the local default. */
export const POSTGRES_ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
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

export async function freshPostgres(): Promise<TestDatabase> {
  const name = `zap_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    provider: "postgresql",
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export interface ProviderUnderTest {
  provider: "sqlite" | "postgresql";
  /** False when PostgreSQL cannot be reached: its tests are reported as skipped, not passed. */
  available: boolean;
  create: () => Promise<TestDatabase>;
}

/** The providers database tests run against: SQLite always, PostgreSQL when reachable. */
export async function testProviders(): Promise<ProviderUnderTest[]> {
  const pgUp = await postgresReachable();
  if (!pgUp) console.warn(`PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL}; its tests are skipped.`);
  return [
    { provider: "sqlite", available: true, create: freshSqlite },
    { provider: "postgresql", available: pgUp, create: freshPostgres },
  ];
}
