// Approvals waiting now: a gauge, read from approval_records (its (status,
// requested_at) index), not from the rollups. Only the tool filter applies: the
// graph, version and starter are the run's, and lib/metrics does not read the
// ledger's runs (lib/run-ledger writes the rollups, so it sits above this module).
// No "server-only" here: the worker (plain Node) loads this module too (the ledger writer, the monitor evaluator).
import type { Db } from "../../db/prisma";
import type { MetricFilters, PendingApprovalsNow } from "../schemas";

/** Pending approvals read at most: the inbox's own bound; more would be a backlog no chart needs exactly. */
const PENDING_CAP = 10_000;

/** How many approvals wait now (of `filters.tool`, when given) and since when the oldest does. */
export async function pendingApprovalsNow(db: Db, filters: MetricFilters, now: Date = new Date()): Promise<PendingApprovalsNow> {
  const pending = await db.approvalRecord.findMany({
    where: { status: "pending", ...(filters.tool ? { toolName: filters.tool } : {}) },
    orderBy: { requestedAt: "asc" },
    select: { requestedAt: true },
    take: PENDING_CAP,
  });
  const oldest = pending[0]?.requestedAt ?? null;
  return {
    count: pending.length,
    oldestRequestedAt: oldest ? oldest.toISOString() : null,
    oldestWaitMs: oldest ? Math.max(0, now.getTime() - oldest.getTime()) : null,
  };
}
