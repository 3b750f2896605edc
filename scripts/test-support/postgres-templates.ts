// PostgreSQL template databases for the integration run: one with every
// migration applied, one with the demo seed on top. A test's database is then
// `CREATE DATABASE … TEMPLATE …` (about 0.14 s, a block copy inside the server)
// instead of 36 migrations and a seed with four bcrypt hashes (about 1.1 s and
// ~1 CPU-s each, measured on 2 cores, 2026-11-30) — the same rows, as SQLite's
// harness already gets from a copied file. Migrating and seeding themselves are
// tested from empty databases (scripts/db/migrations.int.test.ts).
import { randomBytes } from "node:crypto";
import pg from "pg";
import { applyMigrations } from "../db/migrate";
import { createDb } from "../../lib/db/prisma";
import { seedDatabase } from "../../lib/seed/seed";
import { freshPostgres, postgresAdminUrl, type TestDatabase } from "./databases";

export interface PostgresTemplates {
  /** Every committed migration applied, no rows. */
  migrated: string;
  /** `migrated` plus the demo seed (users, demo agents), as the engine harness seeds a database. */
  seeded: string;
  drop: () => Promise<void>;
}

/** Whether a PostgreSQL answers at the tests' admin URL, without throwing or warning (the tests say that themselves). */
async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Renames a database the admin connection is not connected to. */
async function rename(from: string, to: string): Promise<void> {
  const admin = new pg.Client({ connectionString: postgresAdminUrl() });
  await admin.connect();
  try {
    await admin.query(`alter database ${from} rename to ${to}`);
  } finally {
    await admin.end();
  }
}

/**
 * Builds both templates, or returns null when no PostgreSQL answers (its tests then skip or fail on their own,
 * saying why). Every connection to a template is closed before it is used as one: PostgreSQL refuses to copy a
 * database somebody is connected to.
 */
export async function buildPostgresTemplates(): Promise<PostgresTemplates | null> {
  if (!(await answers(postgresAdminUrl()))) return null;
  const tag = randomBytes(4).toString("hex");
  const made: TestDatabase[] = [];
  const drop = async () => {
    for (const database of made.reverse()) await database.drop().catch(() => undefined);
  };
  try {
    const migrated = await freshPostgres();
    made.push(migrated);
    await applyMigrations(migrated.url);
    const seeded = await freshPostgres({ template: nameOf(migrated) });
    made.push(seeded);
    const db = createDb(seeded.url);
    try {
      await seedDatabase(db, { demo: true });
    } finally {
      await db.$disconnect();
    }
    // Names that say what they are, for anyone who finds them on a shared server after a killed run.
    const names = { migrated: `zap_template_${tag}_migrated`, seeded: `zap_template_${tag}_seeded` };
    await rename(nameOf(migrated), names.migrated);
    await rename(nameOf(seeded), names.seeded);
    const adminUrl = new URL(postgresAdminUrl());
    made.length = 0;
    for (const name of [names.migrated, names.seeded]) {
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      made.push({ provider: "postgresql", url: url.toString(), drop: dropper(name) });
    }
    return { ...names, drop };
  } catch (error) {
    await drop();
    throw error;
  }
}

function nameOf(database: TestDatabase): string {
  return new URL(database.url).pathname.slice(1);
}

function dropper(name: string): () => Promise<void> {
  return async () => {
    const admin = new pg.Client({ connectionString: postgresAdminUrl() });
    await admin.connect();
    try {
      await admin.query(`drop database if exists ${name} with (force)`);
    } finally {
      await admin.end();
    }
  };
}

/**
 * Turns a database made from the migrated template, that nobody has connected to yet, into a copy of the seeded
 * one (same name and URL): what the engine harness would otherwise do by seeding it.
 */
export async function reseedFromTemplate(database: TestDatabase, seededTemplate: string): Promise<void> {
  const name = nameOf(database);
  const admin = new pg.Client({ connectionString: postgresAdminUrl() });
  await admin.connect();
  try {
    await admin.query(`drop database ${name}`);
    await admin.query(`create database ${name} template ${seededTemplate}`);
  } finally {
    await admin.end();
  }
}
