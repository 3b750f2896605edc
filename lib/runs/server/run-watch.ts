import "server-only";
// One poller per web process for every run someone streams: each tick asks the
// database two indexed questions for all watched runs at once (which runs have
// new ledger events, which token rows changed) and wakes only the streams whose
// run moved. A thousand open streams cost two queries per tick, not two thousand.
import type { Db } from "../../db/prisma";
import { readLastEventSeqs } from "../../run-ledger/read";
import { readTokenRows, type TokenRow } from "../token-store";

/** How often the shared poller looks at the database while anyone watches. */
export const WATCH_TICK_MS = 100;

export interface RunWatcher {
  /** Called on every tick where the run has events past what the watcher last saw, or changed token rows. */
  wake(change: { lastEventSeq: number; tokens: TokenRow[] }): void;
}

interface WatchState {
  db: Db;
  watchers: Map<string, Set<RunWatcher>>;
  lastSeq: Map<string, number>;
  tokensAfter: Date | null;
  timer: ReturnType<typeof setTimeout> | null;
}

// Shared through globalThis: Next may load this module in more than one graph per process.
const STATE_KEY = Symbol.for("zap-studio.run-watch");
const holder = globalThis as { [STATE_KEY]?: WatchState };

async function tick(state: WatchState): Promise<void> {
  const runIds = [...state.watchers.keys()];
  if (runIds.length === 0) return;
  try {
    // Token rows are read by their write time, with a small overlap so a row written during the read is not missed
    // (a row seen twice is harmless: streams send only text past what they sent).
    const since = state.tokensAfter;
    const startedAt = new Date(Date.now() - 1000);
    const [runs, tokens] = await Promise.all([
      readLastEventSeqs(state.db, runIds),
      readTokenRows(state.db, runIds, since),
    ]);
    state.tokensAfter = since === null || startedAt > since ? startedAt : since;
    const tokensByRun = new Map<string, TokenRow[]>();
    for (const row of tokens) tokensByRun.set(row.runId, [...(tokensByRun.get(row.runId) ?? []), row]);
    for (const run of runs) {
      const moved = run.lastEventSeq !== state.lastSeq.get(run.id);
      const runTokens = tokensByRun.get(run.id) ?? [];
      if (!moved && runTokens.length === 0) continue;
      state.lastSeq.set(run.id, run.lastEventSeq);
      for (const watcher of state.watchers.get(run.id) ?? []) watcher.wake({ lastEventSeq: run.lastEventSeq, tokens: runTokens });
    }
  } catch (error) {
    // The next tick tries again; each stream also re-reads on its heartbeat.
    console.error("run streams: the shared poll failed:", error instanceof Error ? error.message : error);
  }
}

function schedule(state: WatchState): void {
  if (state.timer || state.watchers.size === 0) return;
  state.timer = setTimeout(() => {
    void tick(state).finally(() => {
      state.timer = null;
      schedule(state);
    });
  }, WATCH_TICK_MS);
}

/** Starts watching `runId` for `watcher`; returns the function that stops it. */
export function watchRun(db: Db, runId: string, watcher: RunWatcher): () => void {
  holder[STATE_KEY] ??= { db, watchers: new Map(), lastSeq: new Map(), tokensAfter: null, timer: null };
  const state = holder[STATE_KEY];
  state.db = db;
  const set = state.watchers.get(runId) ?? new Set<RunWatcher>();
  set.add(watcher);
  state.watchers.set(runId, set);
  schedule(state);
  return () => {
    set.delete(watcher);
    if (set.size === 0) {
      state.watchers.delete(runId);
      state.lastSeq.delete(runId);
    }
  };
}

/** How many runs the process watches now (diagnostics and tests). */
export function watchedRunCount(): number {
  return holder[STATE_KEY]?.watchers.size ?? 0;
}
