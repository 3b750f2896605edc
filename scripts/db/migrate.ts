// Applies the committed migrations for DATABASE_URL's provider.
// SQLite: `prisma migrate deploy` (a new file is a copy of one it migrated from
// empty, see migratedSqliteTemplate). PostgreSQL: the js schema engine cannot
// deploy there (upstream bug), so each pending migration runs over `pg` and is
// recorded in `_prisma_migrations` in the same transaction, as Prisma records it.
// (Not `prisma migrate resolve`: its wasm engine leaves a 10 s timer behind, so
// each call took 11 s, and a crash between the migration and its record left a
// database that could not be migrated again.)
import { copyFile, mkdir, readdir, readFile, rename, rm } from "node:fs/promises";
import { constants, existsSync } from "node:fs";
import os from "node:os";
import { createHash, randomUUID } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { bin, PROJECT_ROOT, runOrThrow } from "../lib/run";
import { prismaPaths, providerOf, sqliteFilePath } from "../../lib/config/database";

export interface MigrationReport {
  provider: "sqlite" | "postgresql";
  applied: string[];
}

/** Names of the committed migrations for a provider, oldest first. */
export async function committedMigrations(provider: "sqlite" | "postgresql"): Promise<string[]> {
  const dir = path.join(PROJECT_ROOT, prismaPaths(provider).migrations);
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory() && existsSync(path.join(dir, e.name, "migration.sql")))
    .map((e) => e.name)
    .sort();
}

/** The key `prisma migrate` takes its advisory lock on: our runs and Prisma's exclude each other. */
const PRISMA_ADVISORY_LOCK = 72707369;

/** Prisma's own definition of its migrations table (schema engine, PostgreSQL flavour). */
const CREATE_MIGRATIONS_TABLE = `create table if not exists "_prisma_migrations" (
  "id" varchar(36) primary key not null,
  "checksum" varchar(64) not null,
  "finished_at" timestamptz,
  "migration_name" varchar(255) not null,
  "logs" text,
  "rolled_back_at" timestamptz,
  "started_at" timestamptz not null default now(),
  "applied_steps_count" integer not null default 0
)`;

async function appliedPostgresMigrations(client: pg.Client): Promise<Set<string>> {
  const rows = await client.query<{ migration_name: string }>(
    "select migration_name from _prisma_migrations where finished_at is not null and rolled_back_at is null",
  );
  return new Set(rows.rows.map((r) => r.migration_name));
}

/** Runs `prisma migrate deploy` on a SQLite file and returns the migrations it applied. */
async function prismaDeploySqlite(databaseUrl: string): Promise<string[]> {
  // No update check: it is a detached process of its own, and it outlived the deploy it came with.
  const result = await runOrThrow(bin("prisma"), ["migrate", "deploy"], { env: { ...process.env, DATABASE_URL: databaseUrl, CHECKPOINT_DISABLE: "1" } });
  // `migrate deploy` lists each applied migration as a folder line ("└─ <name>/").
  return [...result.stdout.matchAll(/└─ (\S+)\/$/gm)].map((m) => m[1] ?? "");
}

/**
 * A SQLite file migrated from empty by `prisma migrate deploy`, kept per set of committed migrations (their
 * names and contents) under the temp directory. Each run of the Prisma CLI costs seconds of CPU (a Node
 * process and the wasm schema engine); the test suites create a fresh database per file, about fifty per
 * run, and a copy of this file is the same database Prisma would have made.
 */
async function migratedSqliteTemplate(): Promise<{ file: string; migrations: string[] }> {
  const migrations = await committedMigrations("sqlite");
  const dir = path.join(PROJECT_ROOT, prismaPaths("sqlite").migrations);
  const hash = createHash("sha256");
  for (const name of migrations) hash.update(name).update("\0").update(await readFile(path.join(dir, name, "migration.sql"))).update("\0");
  const file = path.join(os.tmpdir(), "zap-sqlite-templates", `${hash.digest("hex").slice(0, 24)}.db`);
  if (!existsSync(file)) {
    await mkdir(path.dirname(file), { recursive: true });
    // Built under a name of its own and renamed into place: a concurrent builder or reader never sees half a file.
    const building = `${file}.${process.pid}.${randomUUID()}.building`;
    try {
      await prismaDeploySqlite(`file:${building}`);
      await rename(building, file);
    } finally {
      await rm(building, { force: true });
    }
  }
  return { file, migrations };
}

/** Applies pending migrations to `databaseUrl` and returns what was applied. */
export async function applyMigrations(databaseUrl: string): Promise<MigrationReport> {
  const provider = providerOf(databaseUrl);
  if (provider === "sqlite") {
    const target = sqliteFilePath(databaseUrl);
    await mkdir(path.dirname(target), { recursive: true });
    // A new database is a copy of the migrated template; an existing one is upgraded by Prisma itself.
    if (!existsSync(target)) {
      const template = await migratedSqliteTemplate();
      await copyFile(template.file, target, constants.COPYFILE_EXCL);
      return { provider, applied: template.migrations };
    }
    return { provider, applied: await prismaDeploySqlite(databaseUrl) };
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const applied: string[] = [];
  try {
    await client.query("select pg_advisory_lock($1)", [PRISMA_ADVISORY_LOCK]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const done = await appliedPostgresMigrations(client);
    for (const name of await committedMigrations(provider)) {
      if (done.has(name)) continue;
      const file = await readFile(path.join(PROJECT_ROOT, prismaPaths(provider).migrations, name, "migration.sql"));
      await client.query("begin");
      try {
        await client.query(file.toString("utf8"));
        // Prisma's checksum is the SHA-256 of the file; `migrate status` and `migrate deploy` compare it.
        await client.query(
          `insert into "_prisma_migrations" ("id", "checksum", "migration_name", "logs", "started_at", "finished_at", "applied_steps_count")
           values ($1, $2, $3, '', now(), clock_timestamp(), 1)`,
          [randomUUID(), createHash("sha256").update(file).digest("hex"), name],
        );
        await client.query("commit");
      } catch (error) {
        await client.query("rollback");
        throw new Error(`migration ${name} failed: ${(error as Error).message}`);
      }
      applied.push(name);
    }
  } finally {
    // Ending the session releases the advisory lock.
    await client.end();
  }
  return { provider, applied };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { loadDotenv } = await import("../lib/dotenv");
  loadDotenv();
  const { databaseUrlFrom } = await import("../../lib/config/env");
  const report = await applyMigrations(databaseUrlFrom(process.env));
  console.log(`${report.provider}: ${report.applied.length} migration(s) applied${report.applied.length ? `: ${report.applied.join(", ")}` : ""}`);
}
