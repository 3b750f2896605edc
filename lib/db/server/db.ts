import "server-only";
import { createDb, type Db } from "../prisma";
import { getConfig } from "../../config/server/config";

// One client per process; kept on globalThis so dev-mode reloads reuse it.
const holder = globalThis as typeof globalThis & { zapDb?: Db };

/** The web server's Prisma client. */
export function getDb(): Db {
  holder.zapDb ??= createDb(getConfig().databaseUrl);
  return holder.zapDb;
}
