// Activities that write the run ledger and approval outcomes. Both are
// idempotent: a retry or a replay after a crash writes the same rows again.
import { ApplicationFailure } from "@temporalio/common";
import type { Db } from "../../lib/db/prisma";
import { APPROVAL_ERRORS } from "../../lib/contract/definitions";
import { decisionSignatureProblem } from "../../lib/engine/decision-signature";
import { recordApprovalOutcome, type createLedgerWriter } from "../../lib/run-ledger/write";
import type { ApprovalOutcomeRecord, LedgerBatch } from "../../lib/contract/workflow";

/**
 * Why a recorded outcome is not a genuine decision of the web server, or null (expiries come from the
 * workflow's own timer, withdrawals from its own turn being interrupted: neither is anybody's decision).
 */
export function outcomeSignatureProblem(key: Buffer | null, record: ApprovalOutcomeRecord, now = Date.now()): string | null {
  if (record.status === "expired" || record.status === "withdrawn") return null;
  if (!record.decidedBy || !record.issuedAt) return "the decision is not signed by the web server";
  return decisionSignatureProblem(
    key,
    {
      runId: record.approval.runId,
      approvalId: record.approval.id,
      approved: record.status !== "rejected",
      reason: record.reason,
      editedArguments: record.editedArguments,
      decidedBy: record.decidedBy,
      issuedAt: record.issuedAt,
    },
    record.signature,
    now,
  );
}

export type LedgerWriter = ReturnType<typeof createLedgerWriter>;

export function createLedgerActivities({ db, ledger, decisionKey = null }: { db: Db; ledger: LedgerWriter; decisionKey?: Buffer | null }) {
  const writer = ledger;
  return {
    async recordLedger(batch: LedgerBatch): Promise<void> {
      await writer.write(batch);
    },

    /** Writes an approval's decision or expiry and its audit event; the workflow applies the outcome only after this returns. */
    async recordApprovalOutcome(record: ApprovalOutcomeRecord): Promise<void> {
      // Checked here, where the decision becomes a record: a forged one is never written, so never applied.
      const problem = outcomeSignatureProblem(decisionKey, record);
      if (problem) throw ApplicationFailure.create({ type: APPROVAL_ERRORS.badSignature, message: problem, nonRetryable: true });
      await recordApprovalOutcome(db, record);
    },
  };
}

export type LedgerActivities = ReturnType<typeof createLedgerActivities>;
