// The runs table read behind "How runs started" (lib/runs/triggers.ts): the
// runs a filter selects, grouped by the links that say what started them, in
// one GROUP BY (a group per schedule, webhook endpoint or experiment, never a
// row per run), then added up by trigger.
import type { Db } from "../db/prisma";
import { countByTrigger, type RunTriggerCounts } from "../runs/triggers";
import { runWhere, type RunRowFilter } from "./read";

/** How many of the runs `filter` selects each trigger started. */
export async function readRunTriggerCounts(db: Db, filter: RunRowFilter): Promise<RunTriggerCounts> {
  const groups = await db.run.groupBy({
    by: ["scheduleId", "webhookId", "experimentId"],
    where: runWhere(filter),
    _count: { _all: true },
  });
  return countByTrigger(groups.map((group) => ({ scheduleId: group.scheduleId, webhookId: group.webhookId, experimentId: group.experimentId, count: group._count._all })));
}
