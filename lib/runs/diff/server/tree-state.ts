// The state a run tree's steps follow from, as the compare cache's key
// (compare-cache.ts): every run under the compared one, with its status and
// last event sequence number; null while any of them has not finished.
import "server-only";
import type { Db } from "../../../db/prisma";
import { TERMINAL_STATUSES, type RunStatus } from "../../../contract/types";
import { readLastEventSeqs, readRunRow, readRunTree } from "../../../run-ledger/read";

const finished = (status: string) => TERMINAL_STATUSES.includes(status as RunStatus);

/** The state of `runId`'s tree (the run and every run below it): each run's id, status and last event sequence number. */
export async function finishedTreeState(db: Db, runId: string): Promise<string | null> {
  const row = await readRunRow(db, runId);
  if (!row || !finished(row.status)) return null;
  const tree = await readRunTree(db, row.rootRunId);
  const below = new Set([runId]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const run of tree) {
      if (run.parentRunId !== null && below.has(run.parentRunId) && !below.has(run.id)) {
        below.add(run.id);
        grew = true;
      }
    }
  }
  const runs = tree.filter((r) => below.has(r.id));
  if (runs.some((r) => !finished(r.status))) return null;
  const seqs = runs.length === 1 ? [{ id: row.id, lastEventSeq: row.lastEventSeq }] : await readLastEventSeqs(db, [...below]);
  const status = new Map(runs.map((r) => [r.id, r.status]));
  return seqs
    .map((s) => `${s.id}:${status.get(s.id) ?? "gone"}:${s.lastEventSeq}`)
    .sort()
    .join(",");
}
