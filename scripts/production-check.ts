// Prints the enabled demo accounts of DATABASE_URL, one line, and exits 2 when
// there are any (1 on an error); `npm start` runs it in production mode before
// serving (scripts/lib/production-mode.ts). A child process, because the
// orchestrator must not load the generated Prisma client.
import { loadDotenv } from "./lib/dotenv";
import { parseEnv } from "../lib/config/env";
import { createDb } from "../lib/db/prisma";
import { enabledDemoAccounts } from "../lib/auth/production-mode";

loadDotenv();
const db = createDb(parseEnv().databaseUrl);
try {
  const demo = await enabledDemoAccounts(db);
  console.log(demo.map((d) => d.email).join(", "));
  process.exitCode = demo.length ? 2 : 0;
} finally {
  await db.$disconnect();
}
