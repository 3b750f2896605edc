import { parseEnv } from "../../config/env";
import { createDb } from "../../db/prisma";
import { productionStartRefusal } from "../production-mode";

/** Exits the web server with one line when production mode finds an enabled demo account (see production-mode.ts). */
export async function refuseProductionWithDemoAccounts(): Promise<void> {
  const config = parseEnv();
  if (config.mode !== "production") return;
  // A client of its own, closed after: this runs before anything else opened one.
  const db = createDb(config.databaseUrl);
  try {
    const refusal = await productionStartRefusal(db, config.mode);
    if (!refusal) return;
    console.error(`✗ ${refusal}`);
    process.exit(1);
  } finally {
    await db.$disconnect();
  }
}
