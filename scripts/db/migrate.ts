// Applies the committed migrations for DATABASE_URL's provider.
// SQLite: `prisma migrate deploy`. PostgreSQL: the js schema engine cannot
// deploy there (upstream bug), so each pending migration runs in one
// transaction over `pg` and is then recorded with `prisma migrate resolve`.
import { mkdir, readdir, readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { bin, PROJECT_ROOT, runOrThrow } from "../lib/run";
import { prismaPaths, providerOf, sqliteFilePath } from "../../lib/db/providers";

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

async function appliedPostgresMigrations(client: pg.Client): Promise<Set<string>> {
  const exists = await client.query<{ name: string | null }>("select to_regclass('_prisma_migrations')::text as name");
  if (!exists.rows[0]?.name) return new Set();
  const rows = await client.query<{ migration_name: string }>(
    "select migration_name from _prisma_migrations where finished_at is not null and rolled_back_at is null",
  );
  return new Set(rows.rows.map((r) => r.migration_name));
}

/** Applies pending migrations to `databaseUrl` and returns what was applied. */
export async function applyMigrations(databaseUrl: string): Promise<MigrationReport> {
  const provider = providerOf(databaseUrl);
  const env = { ...process.env, DATABASE_URL: databaseUrl };
  if (provider === "sqlite") {
    await mkdir(path.dirname(sqliteFilePath(databaseUrl)), { recursive: true });
    const result = await runOrThrow(bin("prisma"), ["migrate", "deploy"], { env });
    // `migrate deploy` lists each applied migration as a folder line ("└─ <name>/").
    const applied = [...result.stdout.matchAll(/└─ (\S+)\/$/gm)].map((m) => m[1] ?? "");
    return { provider, applied };
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const applied: string[] = [];
  try {
    const done = await appliedPostgresMigrations(client);
    for (const name of await committedMigrations(provider)) {
      if (done.has(name)) continue;
      const sql = await readFile(path.join(PROJECT_ROOT, prismaPaths(provider).migrations, name, "migration.sql"), "utf8");
      await client.query("begin");
      try {
        await client.query(sql);
        await client.query("commit");
      } catch (error) {
        await client.query("rollback");
        throw new Error(`migration ${name} failed: ${(error as Error).message}`);
      }
      await runOrThrow(bin("prisma"), ["migrate", "resolve", "--applied", name], { env });
      applied.push(name);
    }
  } finally {
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
