// `npm run db:migration -- <name>`: writes the migration that takes the committed
// migrations to the current prisma/schema.prisma, once per provider, and records
// the schema it was generated from (prisma/migrations/schema.snapshot.prisma) so
// the next migration diffs from there.
import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { bin, PROJECT_ROOT, runOrThrow } from "../lib/run";
import { readCanonicalSchema, schemaTextFor } from "./schemas";
import { DATABASE_PROVIDERS, prismaPaths, type DatabaseProvider } from "../../lib/config/database";

export const SNAPSHOT_PATH = path.join(PROJECT_ROOT, "prisma/migrations/schema.snapshot.prisma");

/** SQL that takes a database from the `from` schema text (or empty) to the `to` schema text. */
export async function diffSchemas(provider: DatabaseProvider, fromCanonical: string | null, toCanonical: string): Promise<string> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), "zap-migration-"));
  try {
    const toFile = path.join(scratch, "to.prisma");
    await writeFile(toFile, schemaTextFor(provider, toCanonical));
    const from = ["--from-empty"];
    if (fromCanonical !== null) {
      const fromFile = path.join(scratch, "from.prisma");
      await writeFile(fromFile, schemaTextFor(provider, fromCanonical));
      from.splice(0, 1, "--from-schema-datamodel", fromFile);
    }
    // Schema-to-schema diffs need no real database, but the js schema engine
    // opens the configured adapter anyway: point it at a scratch SQLite file.
    const result = await runOrThrow(bin("prisma"), ["migrate", "diff", ...from, "--to-schema-datamodel", toFile, "--script"], {
      env: { ...process.env, DATABASE_URL: `file:${path.join(scratch, "scratch.db")}` },
    });
    return result.stdout.replace(/^Loaded Prisma config.*\n/m, "").trim();
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** True when an SQL script contains no statements (only comments/whitespace). */
export function isEmptyMigration(sql: string): boolean {
  return sql.split("\n").every((line) => line.trim() === "" || line.trim().startsWith("--"));
}

function timestamp(now: Date): string {
  return now.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

async function main(): Promise<void> {
  const name = process.argv[2];
  if (!name || !/^[a-z0-9_]+$/.test(name)) {
    console.error("Usage: npm run db:migration -- <name>   (lowercase letters, digits and underscores)");
    process.exit(2);
  }
  const current = await readCanonicalSchema();
  const previous = existsSync(SNAPSHOT_PATH) ? await readFile(SNAPSHOT_PATH, "utf8") : null;
  const folder = `${timestamp(new Date())}_${name}`;
  let written = 0;
  for (const provider of DATABASE_PROVIDERS) {
    const sql = await diffSchemas(provider, previous, current);
    if (isEmptyMigration(sql)) continue;
    const dir = path.join(PROJECT_ROOT, prismaPaths(provider).migrations);
    await mkdir(path.join(dir, folder), { recursive: true });
    await writeFile(path.join(dir, folder, "migration.sql"), `${sql}\n`);
    await writeFile(path.join(dir, "migration_lock.toml"), `# Written by npm run db:migration.\nprovider = "${provider}"\n`);
    written++;
    console.log(`wrote ${path.relative(PROJECT_ROOT, path.join(dir, folder, "migration.sql"))}`);
  }
  if (written === 0) {
    console.log("The schema matches the committed migrations; nothing to write.");
    return;
  }
  await writeFile(SNAPSHOT_PATH, current);
  console.log(`updated ${path.relative(PROJECT_ROOT, SNAPSHOT_PATH)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
}
