// The runs list's order. Newest first by default; by duration, tokens or cost
// the server sorts the matching top-level runs by the very figures the list
// shows (the run's duration from lib/runs/run-time.ts, its tree's tokens and
// cost from the same roll-up), so the order never disagrees with the cells.
import { runDurationMs } from "./run-time";
import type { RunSort } from "./schemas";

/** What a sort needs of one top-level run. */
export interface RunSortKey {
  id: string;
  startMs: number;
  endMs: number | null;
  /** The tree's tokens, in and out (only read for a sort by tokens). */
  tokens?: number;
  /** The tree's cost in US dollars; null when a model had no price (only read for a sort by cost). */
  cost?: number | null;
}

/** A sort by duration, tokens or cost orders at most this many of the newest matching runs (the page says so). */
export const RUN_SORT_CANDIDATES_MAX = 2_000;

/** Whether a sort needs the tree's usage (a read of its model calls) rather than the run rows alone. */
export function sortNeedsUsage(sort: RunSort | undefined): sort is "tokens" | "cost" {
  return sort === "tokens" || sort === "cost";
}

/**
 * Compares two runs for the list's order. Ties, and runs with nothing to compare
 * (an unpriced cost: not $0), fall back to newest first; unpriced runs come last
 * in either direction, as "unpriced" is no amount to rank.
 */
export function compareRuns(sort: RunSort, order: "asc" | "desc", now: number): (a: RunSortKey, b: RunSortKey) => number {
  const newestFirst = (a: RunSortKey, b: RunSortKey) => b.startMs - a.startMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const value = (key: RunSortKey): number | null => {
    if (sort === "started") return key.startMs;
    if (sort === "duration") return runDurationMs(key, now);
    if (sort === "tokens") return key.tokens ?? 0;
    return key.cost ?? null;
  };
  const sign = order === "asc" ? 1 : -1;
  return (a, b) => {
    const va = value(a);
    const vb = value(b);
    if (va === null || vb === null) return va === vb ? newestFirst(a, b) : va === null ? 1 : -1;
    return (va - vb) * sign || newestFirst(a, b);
  };
}

/** The URL's sort after a click on a column's sort button: that column largest first, or the other way on a second click. */
export function nextSort(current: { sort?: RunSort; order?: "asc" | "desc" }, clicked: RunSort): { sort: RunSort; order: "asc" | "desc" } {
  if ((current.sort ?? "started") !== clicked) return { sort: clicked, order: "desc" };
  return { sort: clicked, order: (current.order ?? "desc") === "desc" ? "asc" : "desc" };
}
