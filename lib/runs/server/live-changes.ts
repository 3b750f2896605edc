import "server-only";
// What changed in the run ledger, for every live list of this web process at
// once: one poller per database reads the runs written since its high-water
// mark (runs.updated_at, indexed) and the approvals decided since (decided_at,
// indexed) every LIVE_POLL_MS while anyone listens, so a thousand open tabs
// cost the database the same as one. Listeners are called synchronously and
// must not block (the SSE streams enqueue, or drop and ask for a resync).
//
// A row's updated_at is stamped by the writer before its transaction commits,
// so a row can appear with a stamp older than rows already seen: each read
// looks LOOKBACK_MS behind the high-water mark and a remembered signature per
// run and per approval drops what was already announced.
import type { Db } from "../../db/prisma";
import { readApprovalsDecidedSince, readApprovalsOfRuns, readRunsChangedSince, readRunStarts, type ApprovalChangeRow, type RunChangeRow } from "../../run-ledger/changes";
import { readRunRows } from "../../run-ledger/read";
import type { RunStatus } from "../../contract/types";
import type { ApprovalChange, LiveChange, RunChange, RunStart } from "../live-feed";

export const LIVE_POLL_MS = 100;
export const LOOKBACK_MS = 2_000;
/** Rows per read; a busier window is read in further pages within the same tick. */
const PAGE = 500;
const MAX_PAGES_PER_TICK = 10;
/** How long an announced signature is remembered: far longer than the lookback, so a re-read row is never announced twice. */
const REMEMBER_MS = 30_000;

type Listener = (changes: LiveChange[]) => void;

/** What a reader announced already: run signatures, runs with pending approvals and their counts, approval statuses. */
export interface ChangeMemory {
  runs: Map<string, { signature: string; seenAt: number }>;
  pending: Map<string, number>;
  approvals: Map<string, { status: string; seenAt: number }>;
}

export const emptyMemory = (): ChangeMemory => ({ runs: new Map(), pending: new Map(), approvals: new Map() });

const toRunChange = (row: RunChangeRow): RunChange => ({
  runId: row.id,
  rootRunId: row.rootRunId,
  parentRunId: row.parentRunId,
  status: row.status as RunStatus,
  iteration: row.iteration,
  pendingApprovals: row.pendingApprovals,
  lastEventSeq: row.lastEventSeq,
  endedAt: row.endedAt?.toISOString() ?? null,
  updatedAt: row.updatedAt.toISOString(),
});

const toApprovalChange = (row: ApprovalChangeRow): ApprovalChange => ({
  approvalId: row.id,
  runId: row.runId,
  rootRunId: row.rootRunId,
  agentName: row.agentName,
  toolName: row.toolName,
  status: row.status,
  requestedAt: row.requestedAt.toISOString(),
  decidedAt: row.decidedAt?.toISOString() ?? null,
  decidedBy: row.decidedByEmail,
});

/** Runs written after `from`, page by page (at most MAX_PAGES_PER_TICK), and whether more were left. */
async function readRunWindow(db: Db, from: Date): Promise<{ rows: RunChangeRow[]; truncated: boolean }> {
  const rows: RunChangeRow[] = [];
  let after = from;
  for (let page = 0; page < MAX_PAGES_PER_TICK; page++) {
    const batch = await readRunsChangedSince(db, after, PAGE);
    rows.push(...batch);
    if (batch.length < PAGE) return { rows, truncated: false };
    after = batch[batch.length - 1]!.updatedAt;
  }
  return { rows, truncated: true };
}

/**
 * The changes after `runsFrom` / `decidedFrom` not yet in `memory` (which it
 * updates), oldest first, with the newest stamps seen. Used by the shared
 * poller on every tick and by a feed that resumes from a cursor (fresh memory).
 */
export async function collectChanges(db: Db, from: { runs: Date; decided: Date }, memory: ChangeMemory, now = Date.now()): Promise<{ changes: LiveChange[]; newest: { runs: Date; decided: Date }; truncated: boolean }> {
  const [{ rows, truncated }, decided] = await Promise.all([readRunWindow(db, from.runs), readApprovalsDecidedSince(db, from.decided, PAGE)]);
  const changes: LiveChange[] = [];
  const newest = { runs: from.runs, decided: from.decided };
  const pendingMoved: RunChangeRow[] = [];
  for (const row of rows) {
    if (row.updatedAt > newest.runs) newest.runs = row.updatedAt;
    const signature = `${row.updatedAt.getTime()}:${row.lastEventSeq}:${row.status}:${row.pendingApprovals}:${row.iteration}`;
    if (memory.runs.get(row.id)?.signature === signature) continue;
    memory.runs.set(row.id, { signature, seenAt: now });
    changes.push({ topic: "runs", event: "run", cursor: row.updatedAt.getTime(), data: toRunChange(row) });
    // A run never seen waiting that waits for nothing has no approval news.
    const known = memory.pending.get(row.id);
    if (known === row.pendingApprovals || (known === undefined && row.pendingApprovals === 0)) continue;
    pendingMoved.push(row);
    if (row.pendingApprovals > 0) memory.pending.set(row.id, row.pendingApprovals);
    else memory.pending.delete(row.id);
  }
  await addRunStarts(db, changes);
  const approvals = [...(await readApprovalsOfRuns(db, pendingMoved.map((r) => r.id))), ...decided];
  const stampOf = new Map(pendingMoved.map((r) => [r.id, r.updatedAt.getTime()]));
  for (const approval of approvals) {
    if (approval.decidedAt && approval.decidedAt > newest.decided) newest.decided = approval.decidedAt;
    if (memory.approvals.get(approval.id)?.status === approval.status) continue;
    memory.approvals.set(approval.id, { status: approval.status, seenAt: now });
    const cursor = approval.decidedAt?.getTime() ?? stampOf.get(approval.runId) ?? now;
    changes.push({ topic: "approvals", event: "approval", cursor, data: toApprovalChange(approval) });
  }
  for (const row of pendingMoved) {
    changes.push({ topic: "approvals", event: "pending", cursor: row.updatedAt.getTime(), data: { runId: row.id, rootRunId: row.rootRunId, pendingApprovals: row.pendingApprovals } });
  }
  return { changes, newest, truncated };
}

/** Adds what the list shows to the changes of runs that just started (no ledger event yet), read in one query. */
async function addRunStarts(db: Db, changes: LiveChange[]): Promise<void> {
  const fresh = changes.filter((c): c is Extract<LiveChange, { event: "run" }> => c.event === "run" && c.data.lastEventSeq === 0);
  if (fresh.length === 0) return;
  const starts = new Map<string, RunStart>(
    (await readRunStarts(db, fresh.map((c) => c.data.runId))).map((r) => [r.id, { agentName: r.agentName, graphName: r.graphName, startedBy: r.startedBy, task: r.task.slice(0, 300), startedAt: r.startedAt.toISOString() }]),
  );
  for (const change of fresh) {
    const started = starts.get(change.data.runId);
    if (started) change.data.started = started;
  }
}

/** Forgets signatures no read can meet again (older than REMEMBER_MS); pending approvals stay until decided. */
function prune(memory: ChangeMemory, now: number): void {
  for (const [id, seen] of memory.runs) if (now - seen.seenAt > REMEMBER_MS) memory.runs.delete(id);
  for (const [id, seen] of memory.approvals) if (seen.status !== "pending" && now - seen.seenAt > REMEMBER_MS) memory.approvals.delete(id);
}

/** The shared poller of one database. */
export class LiveChanges {
  private readonly listeners = new Set<Listener>();
  private running: Promise<void> | null = null;
  private memory = emptyMemory();
  private marks = { runs: new Date(), decided: new Date() };
  private lastPrune = 0;
  private failing = false;

  constructor(
    private readonly db: Db,
    private readonly pollMs = LIVE_POLL_MS,
  ) {}

  /** Calls `listener` with every batch of changes from now on; returns the unsubscribe. The poller runs while anyone listens. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    this.running ??= this.run();
    return () => {
      this.listeners.delete(listener);
    };
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  private async run(): Promise<void> {
    try {
      // A fresh start (or a restart after everyone left): announce from now, knowing which runs wait already,
      // so a decision applied to a run that waited before this started still reaches the inbox.
      const now = Date.now();
      this.memory = emptyMemory();
      this.marks = { runs: new Date(now), decided: new Date(now) };
      const { rows } = await readRunRows(this.db, { awaitingApproval: true }, { take: 1_000 });
      for (const row of rows) this.memory.pending.set(row.id, row.pendingApprovals);
      while (this.listeners.size > 0) {
        await this.tick();
        await new Promise((resolve) => setTimeout(resolve, this.pollMs));
      }
    } catch (error) {
      console.warn(`live lists: the change poller stopped (${error instanceof Error ? error.message : String(error)})`);
    } finally {
      this.running = null;
      // Someone subscribed while this loop was leaving (or it failed at start): start again.
      if (this.listeners.size > 0) setTimeout(() => (this.running ??= this.run()), this.pollMs);
    }
  }

  private async tick(): Promise<void> {
    const now = Date.now();
    try {
      const from = { runs: new Date(this.marks.runs.getTime() - LOOKBACK_MS), decided: new Date(this.marks.decided.getTime() - LOOKBACK_MS) };
      const { changes, newest } = await collectChanges(this.db, from, this.memory, now);
      this.marks = newest.runs > this.marks.runs || newest.decided > this.marks.decided ? { runs: maxDate(this.marks.runs, newest.runs), decided: maxDate(this.marks.decided, newest.decided) } : this.marks;
      this.failing = false;
      if (changes.length) for (const listener of [...this.listeners]) listener(changes);
    } catch (error) {
      // The database hiccuped: say so once, keep polling (the lists fall back to nothing worse than a late update).
      if (!this.failing) console.warn(`live lists: reading changes failed (${error instanceof Error ? error.message : String(error)}); retrying`);
      this.failing = true;
    }
    if (now - this.lastPrune > REMEMBER_MS / 3) {
      prune(this.memory, now);
      this.lastPrune = now;
    }
  }
}

const maxDate = (a: Date, b: Date) => (a > b ? a : b);

// One poller per database per process, shared through globalThis: Next builds
// each route handler as its own module graph, and two feeds must share one poller.
const POLLERS_KEY = Symbol.for("zap-studio.live-changes");

/** The process's shared poller of `db`. */
export function liveChanges(db: Db): LiveChanges {
  const holder = globalThis as { [POLLERS_KEY]?: WeakMap<Db, LiveChanges> };
  holder[POLLERS_KEY] ??= new WeakMap();
  let poller = holder[POLLERS_KEY].get(db);
  if (!poller) {
    poller = new LiveChanges(db);
    holder[POLLERS_KEY].set(db, poller);
  }
  return poller;
}
