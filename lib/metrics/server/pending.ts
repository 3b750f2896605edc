// Approvals waiting now: a gauge, read from approval_records (its (status,
// requested_at) index), not from the rollups.
// No "server-only" here: the worker (plain Node) loads this module too (the ledger writer, the monitor evaluator).
import type { Db } from "../../db/prisma";
import type { MetricFilters, PendingApprovalsNow } from "../schemas";

/** Pending approvals read at most: the inbox's own bound; more would be a backlog no chart needs exactly. */
const PENDING_CAP = 10_000;

/** How many approvals wait now and since when the oldest does, filtered by the runs' graph, version and starter, and the tool. */
export async function pendingApprovalsNow(db: Db, filters: MetricFilters, now: Date = new Date()): Promise<PendingApprovalsNow> {
  const pending = await db.approvalRecord.findMany({
    where: { status: "pending", ...(filters.tool ? { toolName: filters.tool } : {}) },
    orderBy: { requestedAt: "asc" },
    select: { runId: true, requestedAt: true },
    take: PENDING_CAP,
  });
  let kept = pending;
  if (filters.graph !== undefined || filters.version !== undefined || filters.startedBy !== undefined) {
    // Pending approvals are few (bounded above); their runs are read by primary key.
    const versionIds =
      filters.version === undefined ? undefined : (await db.agentVersion.findMany({ where: { version: filters.version }, select: { id: true } })).map((v) => v.id);
    const runs = await db.run.findMany({
      where: {
        id: { in: [...new Set(pending.map((p) => p.runId))] },
        ...(filters.graph !== undefined ? { graphName: filters.graph } : {}),
        ...(filters.startedBy !== undefined ? { startedBy: filters.startedBy } : {}),
        ...(versionIds !== undefined ? { agentVersionId: { in: versionIds } } : {}),
      },
      select: { id: true },
    });
    const matching = new Set(runs.map((r) => r.id));
    kept = pending.filter((p) => matching.has(p.runId));
  }
  const oldest = kept[0]?.requestedAt ?? null;
  return {
    count: kept.length,
    oldestRequestedAt: oldest ? oldest.toISOString() : null,
    oldestWaitMs: oldest ? Math.max(0, now.getTime() - oldest.getTime()) : null,
  };
}
