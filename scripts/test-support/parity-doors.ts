// What the parity tests stand in for around the two doors: who is signed in,
// and the process-wide database, engine and configuration the web server
// would build. Each parity file mocks the server modules with these (vi.mock
// factories must live in the test file; what they return lives here, once):
//   vi.mock("@/lib/db/server/db", async () => (await import("<this file>")).dbModule);
import type { AppConfig } from "../../lib/config/env";
import type { Db } from "../../lib/db/prisma";
import type { Engine } from "../../lib/engine/client";

/** The test's stand-ins; a test sets them in beforeAll and `userId` per request. */
export const doors = { db: null as Db | null, engine: null as Engine | null, config: null as AppConfig | null, userId: null as string | null };

function present<T>(value: T | null, what: string): T {
  if (value === null) throw new Error(`no test ${what}`);
  return value;
}

/** The session: the user `doors.userId` names, signed in just now. */
export const authModule = {
  auth: async () => (doors.userId ? { user: { id: doors.userId }, signedInAt: Date.now() } : null),
  // After a password change a door signs the browser in again (a new cookie); there is no browser here.
  signIn: async () => undefined,
};
export const dbModule = { getDb: () => present(doors.db, "database") };
export const engineModule = { getEngine: () => present(doors.engine, "engine") };
export const configModule = { getConfig: () => present(doors.config, "configuration") };
export const cacheModule = { revalidatePath: () => undefined };
