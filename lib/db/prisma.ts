import pg from "pg";
import { PrismaClient as SqlitePrismaClient } from "./generated/sqlite/client";
import { PrismaClient as PostgresPrismaClient } from "./generated/postgresql/client";
import { providerOf } from "../config/database";
import { createSqliteAdapter } from "./sqlite-driver";
import { ReleasingPrismaPg } from "./pg-adapter";
import { registerDbProvider, TRANSACTION_LIMITS } from "./transactions";
import { omitSecrets, type Db } from "./db-type";

export type { Db } from "./db-type";

/**
 * Creates a Prisma client for `databaseUrl` (absolute `file:` URL or `postgres://`).
 * Callers own the instance: Next keeps one per process (lib/db/server/db.ts), the
 * worker and scripts create theirs at start-up.
 *
 * SQLite goes through a driver set up for several writing processes (WAL, a
 * busy timeout on every connection, transactions that take the write lock up
 * front, busy statements retried: lib/db/sqlite-driver.ts). Both providers get
 * transaction limits long enough to wait out a burst of writers; multi-statement
 * writes go through writeTransaction (lib/db/transactions.ts).
 */
export function createDb(databaseUrl: string): Db {
  if (providerOf(databaseUrl) === "postgresql") {
    // Our own pool, so every connection has an error listener for its whole life: the server ending a connection
    // (a restart, a failover, an administrator's terminate) emits 'error' on it, and a connection that is neither
    // idle in the pool nor in a transaction had none — an uncaught exception that ended the process (seen in npm
    // test when a test database was dropped WITH (FORCE)). The failed query still rejects; the pool replaces it.
    const pool = new pg.Pool({ connectionString: databaseUrl });
    pool.on("connect", (connection) => {
      connection.on("error", (error) => console.warn(`database: a PostgreSQL connection ended (${error.message}); the pool opens another when needed`));
    });
    pool.on("error", (error) => console.warn(`database: an idle PostgreSQL connection ended (${error.message})`));
    const client = new PostgresPrismaClient({
      // Not PrismaPg itself: a transaction whose COMMIT fails (a serialization failure at commit) would keep its
      // connection, and $disconnect would wait for it for ever (lib/db/pg-adapter.ts).
      adapter: new ReleasingPrismaPg(pool, { disposeExternalPool: true }),
      omit: omitSecrets,
      transactionOptions: TRANSACTION_LIMITS,
    });
    // Both clients are generated from the same schema, so their model APIs match;
    // only the provider-specific raw-SQL typings differ.
    const db = client as unknown as Db;
    registerDbProvider(db, "postgresql");
    return db;
  }
  const db = new SqlitePrismaClient({ adapter: createSqliteAdapter(databaseUrl), omit: omitSecrets, transactionOptions: TRANSACTION_LIMITS });
  registerDbProvider(db, "sqlite");
  return db;
}
