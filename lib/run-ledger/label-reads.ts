// The runs a version label started (lib/labels): the dashboard's split card
// compares the two sides of a label's traffic split from these rows.
import type { Db } from "../db/prisma";

export interface LabelRunRow {
  id: string;
  labelVariant: string | null;
  agentVersionId: string | null;
  status: string;
  startedAt: Date;
  endedAt: Date | null;
}

/** The newest top-level runs started by a graph's label in a start range (at most `take`), experiment runs left out. */
export function readLabelRuns(db: Db, filter: { graph: string; label: string; from?: Date; to?: Date }, take: number): Promise<LabelRunRow[]> {
  return db.run.findMany({
    where: {
      graphName: filter.graph,
      label: filter.label,
      parentRunId: null,
      experimentId: null,
      ...(filter.from || filter.to ? { startedAt: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lte: filter.to } : {}) } } : {}),
    },
    orderBy: { startedAt: "desc" },
    take,
    select: { id: true, labelVariant: true, agentVersionId: true, status: true, startedAt: true, endedAt: true },
  });
}

/** The label and side a run was started by (the run header shows them). */
export function readRunLabel(db: Db, runId: string): Promise<{ label: string | null; labelVariant: string | null } | null> {
  return db.run.findUnique({ where: { id: runId }, select: { label: true, labelVariant: true } });
}
