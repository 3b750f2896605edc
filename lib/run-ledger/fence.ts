// Fencing a run's ledger by attempt (issue 35 §3): for writers of which several
// attempts may write one run id at once. Optional: a batch without a fence is
// written as it always was, so every other writer of the ledger is unchanged.
import type { DbTransaction } from "../db/transactions";
import type { LedgerBatch } from "../contract/workflow";

/**
 * An attempt's claim on the run it writes, for a writer that several attempts may run at once under one run id:
 * an inline plan node's activity (Temporal starts attempt 2 once attempt 1's heartbeat timed out, and attempt 1,
 * its event loop busy, may still be writing). The run row keeps the newest attempt that wrote it as its
 * `generation` (attempt − 1: each attempt is an execution of that run, the first one generation 0).
 */
export interface LedgerFence {
  /** The writer's attempt, from 1. */
  attempt: number;
}

/**
 * A batch, with its writer's fence when it has one. The fence travels on the batch itself, so every wrapper of
 * the writer passes it on; a batch without one is written as ever.
 */
export type FencedLedgerBatch = LedgerBatch & { fence?: LedgerFence };

export const fenceOf = (batch: FencedLedgerBatch): LedgerFence | undefined => batch.fence;

/** A batch of an older attempt than the one that writes the run now: refused, never merged with the newer attempt's records. */
export class LedgerFencedError extends Error {
  constructor(
    readonly runId: string,
    readonly attempt: number,
    readonly current: number,
  ) {
    super(`run ${runId}: the batch of attempt ${attempt} was refused, attempt ${current} writes this run now`);
    this.name = "LedgerFencedError";
  }
}

/**
 * A fenced batch's check, in its transaction before anything of it is written. A batch of an older attempt than
 * the row's is refused. The first batch of a newer attempt removes what older attempts wrote (events, messages,
 * spans, their search documents), so the run's log is one attempt's story and not two interleaved: such a batch
 * holds every record of its attempt (a fenced writer's first batch takes everything since its run started).
 * Rows of the older attempt still queued for derivation are dropped by the deriver (./deriver.ts); rollups it had
 * already derived from them stay counted (they are sums).
 */
export async function applyFence(tx: DbTransaction, batch: FencedLedgerBatch): Promise<void> {
  const fence = fenceOf(batch);
  if (!fence) return;
  const runId = batch.run.runId;
  const row = await tx.run.findUnique({ where: { id: runId }, select: { generation: true } });
  if (!row) return;
  const generation = fence.attempt - 1;
  if (row.generation > generation) throw new LedgerFencedError(runId, fence.attempt, row.generation + 1);
  if (row.generation === generation) return;
  await tx.runEvent.deleteMany({ where: { runId } });
  await tx.runMessage.deleteMany({ where: { runId } });
  await tx.runSpan.deleteMany({ where: { runId } });
  await tx.searchDocument.deleteMany({ where: { runId } });
}

/**
 * Whether one run's batches in a group come from different attempts: the fast path, one insert per table for the
 * whole group, would keep both attempts' rows, so such a group takes the checked path (batch by batch, in order).
 */
export function mixesAttempts(batches: readonly FencedLedgerBatch[]): boolean {
  const attempts = new Map<string, number>();
  for (const batch of batches) {
    const fence = fenceOf(batch);
    if (!fence) continue;
    const seen = attempts.get(batch.run.runId);
    if (seen !== undefined && seen !== fence.attempt) return true;
    attempts.set(batch.run.runId, fence.attempt);
  }
  return false;
}
