// The database a provider's block of a database test reads and writes: one
// place that points the server modules and DATABASE_URL at it and proves it.
import { expect } from "vitest";
import type { Db } from "../../lib/db/prisma";
import { dbProvider } from "../../lib/db/transactions";
import { getDb } from "../../lib/db/server/db";
import { parseEnv } from "../../lib/config/env";
import type { TestDatabase } from "./databases";

const holder = globalThis as typeof globalThis & { zapDb?: Db };

/**
 * Points the server modules (getDb) and DATABASE_URL at this block's database, overwriting what an earlier
 * block left (`DATABASE_URL ??=` kept the SQLite block's URL for the PostgreSQL block), and asserts that the
 * database, its client, the client the server modules read and DATABASE_URL all are the provider the block
 * is named for: a block named PostgreSQL never runs on SQLite. Returns what undoes it, for the block's afterAll.
 */
export function useBlockDatabase(provider: TestDatabase["provider"], database: TestDatabase, db: Db): () => void {
  const before = process.env.DATABASE_URL;
  holder.zapDb = db;
  process.env.DATABASE_URL = database.url;
  expect(database.provider, `the ${provider} block's database`).toBe(provider);
  expect(dbProvider(db), "the block's client").toBe(provider);
  expect(dbProvider(getDb()), "the client the server modules read (getDb)").toBe(provider);
  expect(parseEnv().databaseProvider, "DATABASE_URL, as a configuration read in this block takes it").toBe(provider);
  return () => {
    delete holder.zapDb;
    if (before === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = before;
  };
}
