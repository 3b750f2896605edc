// The ledger reads online evaluation makes (lib/online-eval/claim.ts): a graph's
// ended root runs in (ended_at, id) order with the runs list's own conditions,
// and when each run's conversation closed (its root span ended: the follow-up
// window passed or it was cancelled). Kept here, with the ledger's other reads,
// so the ledger keeps one reader.
import type { Db } from "../db/prisma";
import { runTriggerWhere, type RunTrigger } from "./triggers";

/** Which root runs: the graph's, of these versions and label, statuses, starter and trigger; never an experiment's or a fork. */
export interface EvaluatedRunsQuery {
  graph: string;
  /** Only runs of these saved versions (ids); null: any. */
  versionIds: string[] | null;
  label: string | null;
  statuses: readonly string[];
  startedBy?: string;
  trigger?: RunTrigger;
  /** Ended in [from, to] (or [from, to) with `toExclusive`). */
  from: Date;
  to: Date;
  toExclusive?: boolean;
  /** Strictly after this (ended_at, id). */
  after?: { endedAt: Date; runId: string } | null;
  /** Runs left out (already claimed). */
  excludeIds?: readonly string[];
  take: number;
}

export interface EndedRootRun {
  id: string;
  agentVersionId: string | null;
  label: string | null;
  endedAt: Date | null;
}

/** The root runs a query names, oldest end first (ties by id). */
export async function readEndedRootRuns(db: Db, query: EvaluatedRunsQuery): Promise<EndedRootRun[]> {
  const after = query.after;
  return db.run.findMany({
    where: {
      graphName: query.graph,
      parentRunId: null,
      experimentId: null,
      forkOfRunId: null,
      status: { in: [...query.statuses] },
      ...(query.versionIds ? { agentVersionId: { in: query.versionIds } } : {}),
      ...(query.label !== null ? { label: query.label } : {}),
      ...(query.startedBy ? { startedBy: query.startedBy } : {}),
      ...(query.trigger ? runTriggerWhere(query.trigger) : {}),
      endedAt: query.toExclusive ? { gte: query.from, lt: query.to } : { gte: query.from, lte: query.to },
      ...(query.excludeIds?.length ? { id: { notIn: [...query.excludeIds] } } : {}),
      ...(after ? { OR: [{ endedAt: { gt: after.endedAt } }, { endedAt: after.endedAt, id: { gt: after.runId } }] } : {}),
    },
    orderBy: [{ endedAt: "asc" }, { id: "asc" }],
    take: query.take,
    select: { id: true, agentVersionId: true, label: true, endedAt: true },
  });
}

/** The runs of `ids` that still exist, by end then id (an online evaluator's scan looks at the runs it passed undecided again). */
export async function readRootRunsById(db: Db, ids: readonly string[]): Promise<EndedRootRun[]> {
  if (!ids.length) return [];
  return db.run.findMany({ where: { id: { in: [...ids] } }, orderBy: [{ endedAt: "asc" }, { id: "asc" }], select: { id: true, agentVersionId: true, label: true, endedAt: true } });
}

/** When each run's conversation closed (its root span's end); a run still open is absent. */
export async function readConversationsClosed(db: Db, runIds: readonly string[]): Promise<Map<string, Date>> {
  if (!runIds.length) return new Map();
  const spans = await db.runSpan.findMany({ where: { runId: { in: [...runIds] }, kind: "run", parentId: null, endedAt: { not: null } }, select: { runId: true, endedAt: true } });
  return new Map(spans.flatMap((span) => (span.endedAt ? [[span.runId, span.endedAt] as const] : [])));
}

/** A run's root run id and task (null: no such run). */
export async function readRootAndTask(db: Db, runId: string): Promise<{ rootRunId: string; task: string } | null> {
  return db.run.findUnique({ where: { id: runId }, select: { rootRunId: true, task: true } });
}
