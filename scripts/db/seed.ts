// `npm run db:seed`: seeds demo content into DATABASE_URL if it is empty (a
// database with any user is left untouched).
import { loadDotenv } from "../lib/dotenv";
import { parseEnv } from "../../lib/config/env";
import { createDb } from "../../lib/db/prisma";
import { seedDatabase } from "../../lib/seed/seed";

loadDotenv();
const config = parseEnv();
const db = createDb(config.databaseUrl);
try {
  const report = await seedDatabase(db, { demo: true });
  console.log(report.seeded ? `seeded ${report.users} demo users` : `not empty (${report.users} users); nothing seeded`);
} finally {
  await db.$disconnect();
}
