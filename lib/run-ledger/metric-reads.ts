// The ledger reads of the metric rollups' backfill and pending-approvals gauge
// (lib/metrics/server), kept here so the ledger's tables have one reader.
import type { Db } from "../db/prisma";
import type { DbTransaction } from "../db/transactions";

type Client = Db | DbTransaction;

/** What the rollups need of a run: its identity and start. */
export interface RunIdentityRow {
  id: string;
  parentRunId: string | null;
  graphName: string | null;
  agentVersionId: string | null;
  startedBy: string | null;
  startedAt: Date;
}

/** The runs among `ids` that match the optional graph, version ids and starter. */
export function readRunIdentities(db: Client, ids: string[], where: { graphName?: string; agentVersionIds?: string[]; startedBy?: string } = {}): Promise<RunIdentityRow[]> {
  return db.run.findMany({
    where: {
      id: { in: ids },
      ...(where.graphName !== undefined ? { graphName: where.graphName } : {}),
      ...(where.startedBy !== undefined ? { startedBy: where.startedBy } : {}),
      ...(where.agentVersionIds !== undefined ? { agentVersionId: { in: where.agentVersionIds } } : {}),
    },
    select: { id: true, parentRunId: true, graphName: true, agentVersionId: true, startedBy: true, startedAt: true },
  });
}

/** Up to `take` events after (runId, seq) in (run, seq) order — the primary key's — with their time and JSON. */
export function readEventsAfter(db: Client, after: { runId: string; seq: number }, take: number): Promise<{ runId: string; seq: number; at: Date; data: string }[]> {
  return db.runEvent.findMany({
    where: { OR: [{ runId: { gt: after.runId } }, { runId: after.runId, seq: { gt: after.seq } }] },
    orderBy: [{ runId: "asc" }, { seq: "asc" }],
    take,
    select: { runId: true, seq: true, at: true, data: true },
  });
}
