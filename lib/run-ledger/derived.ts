// Rows derived from the ledger (metric rollups, the search index and facets) are
// written after the ledger's transaction, not in it: that transaction only queues
// what it actually inserted (one row of ledger_derive_queue), and the deriver
// (./deriver.ts) turns queued rows into derived rows in transactions of its own,
// deleting them as it goes. A batch replayed after a crash inserts nothing new and
// so queues nothing; a queued row outlives any crash until it is derived; so every
// inserted ledger row is derived exactly once, a moment after it is written.
import type { DbTransaction } from "../db/transactions";
import type { LedgerBatch } from "../contract/workflow";
import type { RunEvent } from "../contract/types";
import type { DerivableBatch } from "../metrics/derive";
import { INDEXED_TEXT_MAX_CHARS, type IndexableRows } from "../search/server/index-writer";
import { DERIVED_TYPES } from "../metrics/server/rollups";
import type { LedgerFence } from "./fence";

/** What one ledger transaction inserted for one run: only the new events and messages, never replayed ones. */
export interface InsertedLedgerRows {
  run: LedgerBatch["run"];
  summary: LedgerBatch["summary"];
  events: LedgerBatch["events"];
  messages: LedgerBatch["messages"];
  /** Spans are rewritten whole; these are the versions this batch wrote. */
  spans: LedgerBatch["spans"];
  /** The writer's attempt, when several attempts may write the run (./fence.ts). */
  fence?: LedgerFence;
}

/** What the derivations read of one run's inserted rows: the search index's and the rollups' fields, nothing else. */
export interface DerivableRows extends IndexableRows, DerivableBatch {
  run: DerivableBatch["run"] & IndexableRows["run"];
  /**
   * The fenced writer's attempt: a newer attempt's first batch removes what older ones wrote (./fence.ts), so
   * the deriver drops an older attempt's rows it had not derived yet instead of indexing them after the removal.
   */
  attempt?: number;
}

/** Events the search index reads (lib/search/server/index-writer.ts), besides those the rollups count. */
const INDEXED_TYPES = new Set<RunEvent["type"]>(["run_started", "user_message", "tool_call_started", "tool_call_completed", "error", "run_failed", "inference_started"]);

/**
 * The part of one run's inserted rows the derivations read, or null when they read none of it
 * (most batches of a busy run: iteration and span bookkeeping). Text the index would cut is cut
 * here already, so a megabyte tool result is not written twice.
 */
export function derivableRowsOf(inserted: InsertedLedgerRows): DerivableRows | null {
  const events = inserted.events.filter((event) => INDEXED_TYPES.has(event.type) || DERIVED_TYPES.has(event.type));
  const messages = inserted.messages.filter(({ message }) => message.role === "assistant" && Boolean(message.content));
  if (events.length === 0 && messages.length === 0) return null;
  const { runId, rootRunId, parentRunId, graphName, agentVersionId, startedBy } = inserted.run;
  return {
    run: { runId, rootRunId, parentRunId, graphName, agentVersionId, startedBy },
    summary: { startedAt: inserted.summary.startedAt },
    events,
    messages,
    // The index needs a span's id, kind and call id only (which span a text belongs to).
    spans: inserted.spans.map(({ id, kind, attributes }) => ({ id, kind, ...(attributes?.callId !== undefined ? { attributes: { callId: attributes.callId } } : {}) })),
    // The time of the batch's last event, filtered out or not: an answer is indexed at it.
    at: inserted.events.at(-1)?.at,
    ...(inserted.fence ? { attempt: inserted.fence.attempt } : {}),
  };
}

/** Cuts every string longer than the index keeps (ids and names never are): the queue holds what derivations read. */
function cutLongText(_key: string, value: unknown): unknown {
  return typeof value === "string" && value.length > INDEXED_TEXT_MAX_CHARS ? value.slice(0, INDEXED_TEXT_MAX_CHARS) : value;
}

/** Queues the derivable part of what the ledger transaction `tx` inserted (nothing when there is none). */
export async function queueDerivedRows(tx: DbTransaction, inserted: InsertedLedgerRows[]): Promise<void> {
  const rows = inserted.map(derivableRowsOf).filter((rows): rows is DerivableRows => rows !== null);
  if (rows.length === 0) return;
  await tx.deriveQueueItem.create({ data: { rows: JSON.stringify(rows, cutLongText) } });
}
