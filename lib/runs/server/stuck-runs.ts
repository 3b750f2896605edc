import "server-only";
// The built-in "stuck or burning" view: top-level runs still working whose
// tree retried a tool call, has written nothing for longer than a threshold
// (a tool that hangs, or a call waiting for an approver: said so, with the
// call to open in the inbox), or spends more per minute than a threshold.
// Only working runs are read, so the cost is bounded by how many run at once,
// not by the size of the ledger.
import type { Db } from "../../db/prisma";
import { loadPriceBook } from "../../pricing/server/price-book";
import { readRunRows, readSubRuns, type RunRow } from "../../run-ledger/read";
import { readPendingApprovalsOfTrees } from "../../run-ledger/list-reads";
import { treesWithRetries } from "../../search/server/query";
import { STUCK_DEFAULTS, type RunFilters, type WaitingApproval } from "../schemas";
import { quietReason } from "../stuck-words";
import { ownUsage, rollUp } from "./usage";

const WORKING = ["pending", "thinking", "awaiting_tool", "awaiting_approval"] as const;
/** At most this many working runs of each status are examined. */
const WORKING_MAX = 500;

/** The view's thresholds, the URL's or a saved view's, else the defaults. */
export function stuckThresholds(filters: Pick<RunFilters, "stuckMinutes" | "burnPerMinute">) {
  return { stuckMinutes: filters.stuckMinutes ?? STUCK_DEFAULTS.stuckMinutes, burnPerMinute: filters.burnPerMinute ?? STUCK_DEFAULTS.burnPerMinute };
}

/** Why a tree is in the view, and the call it waits on when an approver is what it waits for. */
export interface StuckTree {
  reasons: string[];
  waitingApproval: WaitingApproval | null;
}

/** The stuck or burning top-level runs, newest first, each with why it is in the view. */
export async function stuckOrBurning(db: Db, filters: Pick<RunFilters, "stuckMinutes" | "burnPerMinute">, now = Date.now()): Promise<Map<string, StuckTree>> {
  const { stuckMinutes, burnPerMinute } = stuckThresholds(filters);
  const pages = await Promise.all(WORKING.map((status) => readRunRows(db, { topLevel: true, status }, { take: WORKING_MAX })));
  const roots = pages.flatMap((p) => p.rows).sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime());
  if (roots.length === 0) return new Map();
  const rootIds = roots.map((r) => r.id);
  const family = await readSubRuns(db, rootIds);
  const all: RunRow[] = [...roots, ...family];
  const [retried, own, pending] = await Promise.all([
    treesWithRetries(db, rootIds),
    ownUsage(db, all.map((r) => r.id), await loadPriceBook(db)),
    readPendingApprovalsOfTrees(db, rootIds),
  ]);
  const totals = rollUp(all, own);
  // A tree's last sign of life is its newest write, whichever run wrote it.
  const lastWrite = new Map<string, number>();
  for (const run of all) lastWrite.set(run.rootRunId, Math.max(lastWrite.get(run.rootRunId) ?? 0, run.updatedAt.getTime()));
  // The oldest call each tree waits on (the one an approver should open first).
  const waitingOn = new Map<string, WaitingApproval>();
  for (const a of pending) if (!waitingOn.has(a.rootRunId)) waitingOn.set(a.rootRunId, { approvalId: a.id, runId: a.runId, toolName: a.toolName, requestedAt: a.requestedAt.toISOString() });
  const found = new Map<string, StuckTree>();
  for (const root of roots) {
    const reasons: string[] = [];
    if (retried.has(root.id)) reasons.push("a tool call needed retries");
    const quiet = now - (lastWrite.get(root.id) ?? root.updatedAt.getTime());
    const waiting = waitingOn.get(root.id) ?? null;
    if (quiet > stuckMinutes * 60_000) reasons.push(quietReason(quiet, waiting !== null));
    const cost = totals.get(root.id)?.cost ?? null;
    const minutes = Math.max(1, (now - root.startedAt.getTime()) / 60_000);
    if (cost !== null && cost / minutes > burnPerMinute) reasons.push(`$${(cost / minutes).toFixed(2)} per minute`);
    if (reasons.length) found.set(root.id, { reasons, waitingApproval: waiting });
  }
  return found;
}
