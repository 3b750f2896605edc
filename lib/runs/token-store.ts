// Token streaming's transient store (run_token_streams): a model call's text so
// far, one row per run and iteration. The worker's inference activity writes it
// while the model generates (batched: one write per WRITE_EVERY_MS at most), the
// web server's run streams read it. Nothing here enters workflow history: the
// activity still returns the whole message, which the ledger stores once.
// Used by the worker and the web server alike, so no "server-only" here (as lib/run-ledger).
import type { Db } from "../db/prisma";

/** How often a call's text so far is written while it grows. */
export const TOKEN_WRITE_EVERY_MS = 75;
/** Longest text kept per call: a runaway reply is cut here in the live view (the ledger keeps all of it). */
export const TOKEN_TEXT_LIMIT = 200_000;
/** Rows older than this are deleted by any writer (a run whose last call finished and never wrote again). */
const STALE_AFTER_MS = 60 * 60 * 1000;

export interface TokenCall {
  runId: string;
  iteration: number;
  attempt: number;
  agentName: string;
}

export interface TokenRow extends TokenCall {
  text: string;
  done: boolean;
  updatedAt: Date;
}

export interface TokenWriter {
  /** Appends a piece of the reply; written with the next batch. */
  push(delta: string): void;
  /** Writes what is left, marked done; resolves when written. Never throws. */
  finish(): Promise<void>;
}

/**
 * The latest iteration this process wrote a row for, by run: only those runs have rows to delete (rows
 * another process left age out in the sweep). Bounded: past the cap the oldest entries go.
 */
const rowsWritten = new Map<string, number>();
const ROWS_WRITTEN_CAP = 10_000;

/**
 * A batched writer for one call. Streaming is a view, not the record: a failed
 * write is logged and skipped, never a failure of the model call. A call that
 * ends before its first batch is due writes nothing at all: its message is
 * about to be stored, so fast calls (most demo and tool-call turns) cost no writes.
 */
export function tokenWriter(db: Db, call: TokenCall, everyMs = TOKEN_WRITE_EVERY_MS): TokenWriter {
  let text = "";
  let written = -1;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let inflight: Promise<void> = Promise.resolve();
  let warned = false;
  const write = (done: boolean) => {
    const snapshot = text;
    inflight = inflight.then(async () => {
      try {
        const data = { attempt: call.attempt, agentName: call.agentName, text: snapshot, done, updatedAt: new Date() };
        rowsWritten.delete(call.runId);
        rowsWritten.set(call.runId, call.iteration);
        if (rowsWritten.size > ROWS_WRITTEN_CAP) rowsWritten.delete(rowsWritten.keys().next().value ?? call.runId);
        await db.runTokenStream.upsert({ where: { runId_iteration: { runId: call.runId, iteration: call.iteration } }, create: { runId: call.runId, iteration: call.iteration, ...data }, update: data });
        written = snapshot.length;
      } catch (error) {
        if (!warned) console.warn(`worker: token stream of run ${call.runId} not written (the message is unaffected):`, error instanceof Error ? error.message : error);
        warned = true;
      }
    });
  };
  return {
    push(delta) {
      if (!delta || text.length >= TOKEN_TEXT_LIMIT) return;
      text = (text + delta).slice(0, TOKEN_TEXT_LIMIT);
      // At most one write per `everyMs`, the first one `everyMs` after the first piece.
      timer ??= setTimeout(() => {
        timer = null;
        if (text.length !== written) {
          written = Math.max(written, 0);
          write(false);
        }
      }, everyMs);
    },
    async finish() {
      if (timer) clearTimeout(timer);
      timer = null;
      // Only a call whose text was shown needs its end written (the reader then stops showing it as "writing").
      if (written >= 0) write(true);
      await inflight;
    },
  };
}

let lastSweep = 0;

/**
 * Deletes the run's rows of calls before `iteration` (their messages are in the
 * ledger once a later call starts: its batch carries them) and, at most once a
 * minute per process, every stale row. Best effort, like the writes.
 */
export async function dropFinishedTokens(db: Db, runId: string, iteration: number): Promise<void> {
  try {
    const latest = rowsWritten.get(runId);
    if (latest !== undefined) {
      // The call that just ended keeps its row (its message is in the run's next write); earlier ones go.
      if (latest < iteration) rowsWritten.delete(runId);
      await db.runTokenStream.deleteMany({ where: { runId, iteration: { lt: iteration } } });
    }
    if (Date.now() - lastSweep > 60_000) {
      lastSweep = Date.now();
      await db.runTokenStream.deleteMany({ where: { updatedAt: { lt: new Date(Date.now() - STALE_AFTER_MS) } } });
    }
  } catch (error) {
    console.warn(`worker: old token streams of run ${runId} not deleted:`, error instanceof Error ? error.message : error);
  }
}

/** The rows of these runs written after `after` (all of them when null), oldest first. */
export async function readTokenRows(db: Db, runIds: readonly string[], after: Date | null): Promise<TokenRow[]> {
  if (runIds.length === 0) return [];
  return db.runTokenStream.findMany({
    where: { runId: { in: [...runIds] }, ...(after ? { updatedAt: { gt: after } } : {}) },
    orderBy: [{ updatedAt: "asc" }, { iteration: "asc" }],
  });
}
