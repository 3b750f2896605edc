// `npx tsx scripts/search-backfill.ts [--runs N]`: indexes for search the runs
// whose ledger was written before the search index existed (issue 26 §4).
// Idempotent (a run that has any indexed text is skipped, and a run is indexed
// in one transaction, so a crash leaves it wholly indexed or not at all) and
// bounded (at most N runs per call, default 1,000; run it again for more).
// Lives in scripts/: it reads the ledger (lib/run-ledger) and writes the index
// (lib/search), which lib keeps apart (the ledger's writer calls the index).
import type { Db } from "../lib/db/prisma";
import { writeTransaction, dbProvider } from "../lib/db/transactions";
import { readEventPage, readMessagesFrom, readRunRow, readSpans } from "../lib/run-ledger/read";
import { indexForSearch } from "../lib/search/server/index-writer";
import type { RunEvent } from "../lib/contract/types";

/** Runs with ledger events and no indexed text, oldest first. */
async function unindexedRuns(db: Db, max: number): Promise<string[]> {
  const placeholder = dbProvider(db) === "postgresql" ? "$1" : "?1";
  const rows = await db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT r.id FROM runs r WHERE r.last_event_seq > 0 AND NOT EXISTS (SELECT 1 FROM search_documents d WHERE d.run_id = r.id) ORDER BY r.started_at LIMIT ${placeholder}`,
    max,
  );
  return rows.map((r) => r.id);
}

async function allEvents(db: Db, runId: string): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for (let since = 0; ; ) {
    const page = await readEventPage(db, runId, since);
    events.push(...page.events);
    if (!page.hasMore || page.events.length === 0) return events;
    since = page.nextSince;
  }
}

/** Indexes up to `max` unindexed runs; returns how many it indexed. */
export async function backfillSearchIndex(db: Db, max = 1_000): Promise<number> {
  const runIds = await unindexedRuns(db, max);
  for (const runId of runIds) {
    const run = await readRunRow(db, runId);
    if (!run) continue;
    const [events, messages, spans] = await Promise.all([allEvents(db, runId), readMessagesFrom(db, runId, 0, 100_000), readSpans(db, runId)]);
    await writeTransaction(db, async (tx) => {
      // Checked again inside the transaction: a concurrent backfill, or the ledger's writer, may have indexed it.
      if (await tx.searchDocument.findFirst({ where: { runId }, select: { id: true } })) return;
      await indexForSearch(tx, [{ run: { runId, rootRunId: run.rootRunId }, events, messages, spans }]);
    });
  }
  return runIds.length;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { loadDotenv } = await import("./lib/dotenv");
  loadDotenv();
  const { databaseUrlFrom } = await import("../lib/config/env");
  const { createDb } = await import("../lib/db/prisma");
  const flag = process.argv.indexOf("--runs");
  const max = flag > 0 ? Number(process.argv[flag + 1]) : 1_000;
  if (!Number.isInteger(max) || max < 1) {
    console.error("Usage: npx tsx scripts/search-backfill.ts [--runs N]   (N ≥ 1, default 1000)");
    process.exit(2);
  }
  const db = createDb(databaseUrlFrom(process.env));
  try {
    console.log(`search index: ${await backfillSearchIndex(db, max)} run(s) indexed`);
  } finally {
    await db.$disconnect();
  }
}
