// A process that dies in the middle of the derived rows' life, for the deriver's crash test:
//   node --import tsx scripts/test-support/deriver-child.ts <database url> write <runs json>
//     writes the ledger batches through the worker's ledger writer, whose deriver is woken only
//     after a minute, prints "written" and waits to be killed (a crash between the write and the derive);
//   node --import tsx scripts/test-support/deriver-child.ts <database url> derive
//     starts a pass, prints "claimed <rows>" once its rows are deleted inside its transaction, and
//     waits there to be killed (a crash in the middle of a derive).
import { createDb } from "../../lib/db/prisma";
import { createLedgerWriter } from "../../lib/run-ledger/write";
import { createDeriver, derivePass } from "../../lib/run-ledger/deriver";
import type { LedgerBatch } from "../../lib/contract/workflow";

const [url, mode, batchesJson] = process.argv.slice(2);
if (!url || (mode !== "write" && mode !== "derive")) {
  console.error("usage: deriver-child.ts <database url> write <batches json> | derive");
  process.exit(2);
}
const db = createDb(url);
const forever = () => new Promise<never>(() => setInterval(() => undefined, 60_000));

if (mode === "write") {
  const deriver = createDeriver(db, { delayMs: 60_000 });
  const writer = createLedgerWriter(db, { onWritten: deriver.kick });
  await Promise.all((JSON.parse(batchesJson ?? "[]") as LedgerBatch[]).map((batch) => writer.write(batch)));
  console.log("written");
  await forever();
} else {
  await derivePass(db, 1_000, {
    onClaimed: async (rows) => {
      console.log(`claimed ${rows}`);
      await forever();
    },
  });
}
