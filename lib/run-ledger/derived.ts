// Rows derived from the ledger (metric rollups, the search index) are written in
// the same transaction as the ledger rows they come from, from the rows that
// transaction actually inserted: a batch replayed after a crash inserts nothing
// new and so derives nothing twice, and a derived row exists if and only if its
// ledger row does.
import type { DbTransaction } from "../db/transactions";
import type { LedgerBatch } from "../contract/workflow";
import { writeMetricRollups } from "../metrics/server/rollups";
import { indexForSearch } from "../search/server/index-writer";

/** What one ledger transaction inserted for one run: only the new events and messages, never replayed ones. */
export interface InsertedLedgerRows {
  run: LedgerBatch["run"];
  summary: LedgerBatch["summary"];
  events: LedgerBatch["events"];
  messages: LedgerBatch["messages"];
  /** Spans are rewritten whole; these are the versions this batch wrote. */
  spans: LedgerBatch["spans"];
}

/** Writes everything derived from `inserted` inside the ledger's transaction `tx`. */
export async function writeDerivedRows(tx: DbTransaction, inserted: InsertedLedgerRows[]): Promise<void> {
  if (inserted.length === 0) return;
  // Each derivation appends its call here (metrics: lib/metrics/server; search: lib/search/server).
  await indexForSearch(tx, inserted);
  await writeMetricRollups(tx, inserted);
  void tx;
}
