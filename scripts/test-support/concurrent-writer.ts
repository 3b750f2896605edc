// One separate writer process for contention tests:
//   node --import tsx scripts/test-support/concurrent-writer.ts <database url> <label> <spec json>
// Opens its own Prisma client (as the web server or the worker would), prints
// "ready", waits for "go" on stdin so every process starts at once, runs the
// workload and prints its report as one JSON line.
import { createInterface } from "node:readline";
import { createDb } from "../../lib/db/prisma";
import { runWriteWorkload, type WorkloadSpec } from "./concurrent-writes";

const [url, label, specJson] = process.argv.slice(2);
if (!url || !label || !specJson) {
  console.error("usage: concurrent-writer.ts <database url> <label> <spec json>");
  process.exit(2);
}
const spec = JSON.parse(specJson) as WorkloadSpec;
const db = createDb(url);
// Connect and touch the database before the start signal, so start-up cost is not measured.
await db.ledgerAccount.count();

const lines = createInterface({ input: process.stdin });
console.log("ready");
for await (const line of lines) {
  if (line.trim() !== "go") continue;
  const report = await runWriteWorkload(db, label, spec);
  console.log(JSON.stringify(report));
  break;
}
lines.close();
await db.$disconnect();
