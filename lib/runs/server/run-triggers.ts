import "server-only";
// GET /api/runs/triggers and the client's runTriggers(): the top-level runs
// started in a range, as the overview's run tiles count them (experiment runs
// included), split by what started them. Everyone signed in reads.
import { getDb } from "../../db/server/db";
import { operation } from "../../http/server/operation";
import { readRunLinkGroups } from "../../run-ledger/trigger-counts";
import { countByTrigger, RUN_TRIGGERS, runTriggerQuerySchema, type RunTriggerSplit } from "../triggers";

export const runTriggersOperation = operation({
  name: "run-triggers",
  permission: "read",
  input: runTriggerQuerySchema,
  async run({ input }): Promise<RunTriggerSplit> {
    const db = getDb();
    // A version narrows by the saved versions of that number (of the graph when named), as the runs list does.
    const versionIds =
      input.version === undefined
        ? undefined
        : (await db.agentVersion.findMany({ where: { version: input.version, ...(input.graph ? { agent: { name: input.graph } } : {}) }, select: { id: true } })).map((v) => v.id);
    const groups = await readRunLinkGroups(db, {
      topLevel: true,
      graph: input.graph,
      agentVersionIds: versionIds,
      startedBy: input.startedBy,
      startedFrom: new Date(input.from),
      startedTo: new Date(input.to),
    });
    const counts = countByTrigger(groups);
    return { from: input.from, to: input.to, counts, total: RUN_TRIGGERS.reduce((sum, trigger) => sum + counts[trigger], 0) };
  },
});
