// Activities that write the run ledger and approval outcomes. Both are
// idempotent: a retry or a replay after a crash writes the same rows again.
import type { Db } from "../../lib/db/prisma";
import { createLedgerWriter, recordApprovalOutcome } from "../../lib/engine/ledger/write";
import type { ApprovalOutcomeRecord, LedgerBatch } from "../../lib/engine/workflow-types";

export function createLedgerActivities({ db }: { db: Db }) {
  // One writer per worker process: batches of concurrent runs share a transaction.
  const writer = createLedgerWriter(db);
  return {
    async recordLedger(batch: LedgerBatch): Promise<void> {
      await writer.write(batch);
    },

    /** Writes an approval's decision or expiry and its audit event; the workflow applies the outcome only after this returns. */
    async recordApprovalOutcome(record: ApprovalOutcomeRecord): Promise<void> {
      await recordApprovalOutcome(db, record);
    },
  };
}

export type LedgerActivities = ReturnType<typeof createLedgerActivities>;
