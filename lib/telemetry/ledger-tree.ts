// Reads a run tree's ledger for the export, through the ledger's one reader.
import type { Db } from "../db/prisma";
import { readRunRow, readSpans, readSubRuns, readEventsOfTypes, type RunRow } from "../run-ledger/read";
import { EXPORTED_EVENT_TYPES, type LedgerRun } from "./mapping";

/** Events read per run: far above what a run emits of the exported kinds; a bound all the same. */
const MAX_EVENTS_PER_RUN = 10_000;

async function ledgerRunOf(db: Db, row: RunRow): Promise<LedgerRun> {
  const [spans, events] = await Promise.all([readSpans(db, row.id), readEventsOfTypes(db, row.id, EXPORTED_EVENT_TYPES, { take: MAX_EVENTS_PER_RUN })]);
  return {
    id: row.id,
    rootRunId: row.rootRunId,
    parentRunId: row.parentRunId,
    agentName: row.agentName,
    graphName: row.graphName,
    agentVersionId: row.agentVersionId,
    status: row.status,
    errorReason: row.errorReason,
    generation: row.generation,
    startedAt: row.startedAt,
    endedAt: row.endedAt,
    spans,
    events,
  };
}

/** The run tree `runId` belongs to (root first, then its sub-runs oldest first), or null for an unknown run. */
export async function readLedgerTree(db: Db, runId: string): Promise<LedgerRun[] | null> {
  const row = await readRunRow(db, runId);
  if (!row) return null;
  const root = row.rootRunId === row.id ? row : await readRunRow(db, row.rootRunId);
  if (!root) return null;
  const rows = [root, ...(await readSubRuns(db, [root.id]))];
  // One run at a time: the export must not crowd the database the runs write to.
  const out: LedgerRun[] = [];
  for (const r of rows) out.push(await ledgerRunOf(db, r));
  return out;
}
