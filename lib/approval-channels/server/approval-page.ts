import "server-only";
// What the approval page shows: the pending call as the inbox shows it (from
// the run, which has the last word), or the recorded outcome once decided.
import { z } from "zod";
import { getDb } from "../../db/server/db";
import { getEngine } from "../../engine/server/engine";
import { loadRunApprovals } from "../../inbox/server/inbox";
import { readApprovalRecord } from "../../run-ledger/read";
import type { InboxItem } from "../../inbox/schemas";

const approvalIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/);

export interface ApprovalPageView {
  id: string;
  runId: string;
  agentName: string;
  toolName: string;
  status: string;
  /** The pending call, ready for a decision; null once decided (or no longer pending in the run). */
  pending: InboxItem | null;
  decidedBy: string | null;
  decidedAt: string | null;
  reason: string | null;
}

/** The approval `approvalId` for its page, or null when there is none (a malformed id is none). */
export async function loadApprovalPage(approvalId: string): Promise<ApprovalPageView | null> {
  if (!approvalIdSchema.safeParse(approvalId).success) return null;
  const db = getDb();
  const record = await readApprovalRecord(db, approvalId);
  if (!record) return null;
  const pending = record.status === "pending" ? ((await loadRunApprovals(getEngine(), db, record.runId)).find((item) => item.id === approvalId) ?? null) : null;
  return {
    id: record.id,
    runId: record.runId,
    agentName: record.agentName,
    toolName: record.toolName,
    status: record.status,
    pending,
    decidedBy: record.decidedByEmail,
    decidedAt: record.decidedAt?.toISOString() ?? null,
    reason: record.reason,
  };
}
