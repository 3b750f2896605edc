// Seeds DATABASE_URL like `npm run db:seed`, honouring ZAP_SEED_DEMO, and
// prints the report as one JSON line. `npm start` runs it as a child process:
// the orchestrator must not import the generated Prisma client, which does not
// exist on a fresh clone until the database step generates it.
import { loadDotenv } from "../lib/dotenv";
import { parseEnv } from "../../lib/config/env";
import { createDb } from "../../lib/db/prisma";
import { seedDatabase } from "../../lib/seed/seed";
import { backfillMetricRollups } from "../../lib/run-ledger/metric-backfill";
import { backfillStartedSeries } from "../../lib/run-ledger/started-backfill";

loadDotenv();
const config = parseEnv();
const db = createDb(config.databaseUrl);
try {
  // An upgraded install derives the metric rollups of its older events once, before the worker and web start (a no-op once done).
  await backfillMetricRollups(db);
  // Runs that started before the started_* series (the overview's tiles) existed: counted once, by their state then.
  await backfillStartedSeries(db);
  // Production mode never seeds demo accounts (their passwords are published).
  console.log(JSON.stringify(await seedDatabase(db, { demo: config.seedDemo && config.mode === "demo" })));
} finally {
  await db.$disconnect();
}
