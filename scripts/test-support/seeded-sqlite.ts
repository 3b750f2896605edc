// A fresh SQLite database that starts as a copy of the global setup's migrated,
// demo-seeded template (scripts/test-support/temporal-global-setup.ts), as the
// engine harness makes one: the same database as a migration and a demo seed,
// without a Prisma CLI run and the demo users' bcrypt hashes in every file.
// (scripts/db/migrations.int.test.ts tests migrating and seeding themselves.)
import { copyFile } from "node:fs/promises";
import { inject } from "vitest";
import { sqliteFilePath } from "../../lib/config/database";
import { freshSqlite, type TestDatabase } from "./databases";

export async function seededSqlite(): Promise<TestDatabase> {
  const database = await freshSqlite();
  await copyFile(inject("sqliteTemplatePath"), sqliteFilePath(database.url));
  return database;
}
