import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as SqlitePrismaClient } from "./generated/sqlite/client";
import { PrismaClient as PostgresPrismaClient } from "./generated/postgresql/client";
import { providerOf } from "./providers";

/** Password hashes never leave the database unless a query asks for them explicitly. */
const omitSecrets = { user: { passwordHash: true } } as const;

/** The application's database client type (identical for both providers: one schema generates both). */
export type Db = SqlitePrismaClient<never, typeof omitSecrets>;

/**
 * Creates a Prisma client for `databaseUrl` (absolute `file:` URL or `postgres://`).
 * Callers own the instance: Next keeps one per process (lib/db/server/db.ts), the
 * worker and scripts create theirs at start-up.
 */
export function createDb(databaseUrl: string): Db {
  if (providerOf(databaseUrl) === "postgresql") {
    const client = new PostgresPrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }), omit: omitSecrets });
    // Both clients are generated from the same schema, so their model APIs match;
    // only the provider-specific raw-SQL typings differ.
    return client as unknown as Db;
  }
  return new SqlitePrismaClient({ adapter: new PrismaLibSQL({ url: databaseUrl }), omit: omitSecrets });
}
