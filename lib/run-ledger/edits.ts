// Steps someone wrote rather than recorded, as the ledger holds them: a fork's
// root row names its edit (`fork_edit`), and the engine marks every model output
// or tool result it took from an edited tape entry (`edited` on the event), in a
// fork or in any other taped run (an experiment playing an imported tape). The
// datasets read both to refuse such history (lib/datasets/server/sources.ts).
import type { Db } from "../db/prisma";
import type { RunEvent } from "../contract/types";

/** The event types the engine marks `edited` (lib/contract/types.ts). */
const EDITABLE_TYPES = ["inference_completed", "tool_call_completed"] as const;
export type EditableEvent = Extract<RunEvent, { type: (typeof EDITABLE_TYPES)[number] }>;

/**
 * The edit mark as it appears in an event's JSON. These events hold no nested objects with free keys, and
 * a quote inside a result or a call id is escaped (`\"`), so the text occurs only where the engine wrote
 * the mark; each hit is still parsed and checked before it counts.
 */
const EDIT_KEY = '"edited":';
/** Ids per query: under every provider's bound on parameters, for trees of thousands of sub-runs. */
const SLICE = 500;

export interface TreeEditMarks {
  rootRunId: string;
  /** The root row's `fork_edit` (JSON text as lib/forks writes it), or null. */
  forkEdit: string | null;
  /** The tree's earliest event marked edited (by the event's time), with the run holding it; null when none is. */
  edited: { runId: string; event: EditableEvent & { edited: NonNullable<EditableEvent["edited"]> } } | null;
}

function slices<T>(items: readonly T[]): T[][] {
  return Array.from({ length: Math.ceil(items.length / SLICE) }, (_, i) => items.slice(i * SLICE, (i + 1) * SLICE));
}

/** What the ledger says was written in each of these trees (by root run id; an unknown root is absent). */
export async function readTreeEditMarks(db: Db, rootRunIds: readonly string[]): Promise<TreeEditMarks[]> {
  const runs = (await Promise.all(slices([...new Set(rootRunIds)]).map((roots) => db.run.findMany({ where: { rootRunId: { in: roots } }, select: { id: true, rootRunId: true, forkEdit: true } })))).flat();
  const treeOf = new Map(runs.map((r) => [r.id, r.rootRunId]));
  // The first marked event of each run, found by the database: a taped run may hold thousands of them.
  const firsts = (
    await Promise.all(
      slices(runs.map((r) => r.id)).map((ids) =>
        db.runEvent.groupBy({ by: ["runId"], where: { runId: { in: ids }, type: { in: [...EDITABLE_TYPES] }, data: { contains: EDIT_KEY } }, _min: { seq: true } }),
      ),
    )
  ).flat();
  const keys = firsts.flatMap((f) => (f._min.seq === null ? [] : [{ runId: f.runId, seq: f._min.seq }]));
  const rows = (await Promise.all(slices(keys).map((where) => db.runEvent.findMany({ where: { OR: where }, select: { runId: true, data: true } })))).flat();
  const earliest = new Map<string, NonNullable<TreeEditMarks["edited"]>>();
  for (const row of rows) {
    const event = JSON.parse(row.data) as EditableEvent;
    if (!event.edited) continue;
    const root = treeOf.get(row.runId);
    if (root === undefined) continue;
    const seen = earliest.get(root);
    if (!seen || event.at < seen.event.at) earliest.set(root, { runId: row.runId, event: { ...event, edited: event.edited } });
  }
  return runs.filter((r) => r.id === r.rootRunId).map((r) => ({ rootRunId: r.id, forkEdit: r.forkEdit, edited: earliest.get(r.id) ?? null }));
}
