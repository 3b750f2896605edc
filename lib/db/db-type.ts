// The client type on its own, so the transaction helpers can name it without
// importing the factory that imports them (lib/db/prisma.ts).
import type { PrismaClient as SqlitePrismaClient } from "./generated/sqlite/client";

/** Password hashes never leave the database unless a query asks for them explicitly. */
export const omitSecrets = { user: { passwordHash: true }, webhookEndpoint: { secret: true } } as const;

/** The application's database client type (identical for both providers: one schema generates both). */
export type Db = SqlitePrismaClient<never, typeof omitSecrets>;
