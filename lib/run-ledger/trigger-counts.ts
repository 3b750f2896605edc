// The runs table read behind "How runs started" (lib/runs/triggers.ts folds
// it): the runs a filter selects, grouped by the links that say what started
// them, in one GROUP BY (a group per schedule, webhook endpoint or experiment,
// never a row per run).
import type { Db } from "../db/prisma";
import { runWhere, type RunRowFilter } from "./read";

/** Runs sharing the same links, and how many they are. */
export interface RunLinkGroup {
  scheduleId: string | null;
  webhookId: string | null;
  experimentId: string | null;
  count: number;
}

/** The runs `filter` selects, grouped by their schedule, webhook endpoint and experiment links. */
export async function readRunLinkGroups(db: Db, filter: RunRowFilter): Promise<RunLinkGroup[]> {
  const groups = await db.run.groupBy({
    by: ["scheduleId", "webhookId", "experimentId"],
    where: runWhere(filter),
    _count: { _all: true },
  });
  return groups.map((group) => ({ scheduleId: group.scheduleId, webhookId: group.webhookId, experimentId: group.experimentId, count: group._count._all }));
}
