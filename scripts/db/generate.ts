// Generates the Prisma client for both providers from the one schema.
import { bin, runOrThrow } from "../lib/run";
import { writeDerivedSchemas } from "./schemas";
import { DATABASE_PROVIDERS } from "../../lib/config/database";

export async function generatePrismaClients(): Promise<void> {
  const schemas = await writeDerivedSchemas();
  for (const provider of DATABASE_PROVIDERS) {
    await runOrThrow(bin("prisma"), ["generate", "--no-hints", "--schema", schemas[provider]]);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await generatePrismaClients();
  console.log("Prisma clients generated for sqlite and postgresql.");
}
