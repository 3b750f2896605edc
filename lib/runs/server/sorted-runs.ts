import "server-only";
// One page of the runs list in another order than newest first: by duration,
// or by the tree's tokens or cost. The newest RUN_SORT_CANDIDATES_MAX matching
// runs are read as ids and times, their trees' model tokens summed by the
// database and priced as the list prices them, sorted here (lib/runs/run-sort.ts),
// and only the page's rows are read whole. Beyond that many matches the page
// says which runs it ordered, rather than reading the whole ledger per page.
import type { Db } from "../../db/prisma";
import type { RunRow, RunRowFilter } from "../../run-ledger/read";
import { readRunRowsById, readRunTimes, readTreeModelTokens } from "../../run-ledger/list-reads";
import { addCosts, costAt, type PriceBook } from "../pricing";
import { periodTime, priceChangeTimes } from "../../pricing/price-book";
import { compareRuns, RUN_SORT_CANDIDATES_MAX, sortNeedsUsage, type RunSortKey } from "../run-sort";
import type { RunSort } from "../schemas";

export interface SortedRunPage {
  rows: RunRow[];
  total: number;
  /** Set when more runs matched than were ordered. */
  note: string | null;
}

/** Each tree's tokens and cost, priced per model as the list's usage cells are (lib/runs/server/usage.ts). */
async function treeUsage(db: Db, rootRunIds: string[], prices: PriceBook): Promise<Map<string, { tokens: number; cost: number | null }>> {
  const usage = new Map<string, { tokens: number; cost: number | null }>(rootRunIds.map((id) => [id, { tokens: 0, cost: 0 }]));
  const changes = priceChangeTimes(prices);
  for (const row of await readTreeModelTokens(db, rootRunIds, changes)) {
    const tokens = { inputTokens: row.inputTokens, outputTokens: row.outputTokens };
    const sum = usage.get(row.rootRunId) ?? { tokens: 0, cost: 0 };
    usage.set(row.rootRunId, { tokens: sum.tokens + tokens.inputTokens + tokens.outputTokens, cost: addCosts(sum.cost, costAt(prices, row.model, tokens, periodTime(changes, row.period))) });
  }
  return usage;
}

/** One page of top-level runs matching `filter`, ordered by `sort`. */
export async function readSortedRunPage(
  db: Db,
  filter: RunRowFilter,
  options: { sort: RunSort; order: "asc" | "desc"; skip: number; take: number; prices: PriceBook; now?: number },
): Promise<SortedRunPage> {
  const { rows: candidates, total } = await readRunTimes(db, filter, RUN_SORT_CANDIDATES_MAX);
  const usage = sortNeedsUsage(options.sort) ? await treeUsage(db, candidates.map((c) => c.id), options.prices) : null;
  const keys: RunSortKey[] = candidates.map((c) => {
    const own = usage?.get(c.id);
    // A null cost is "unpriced" and stays null (never $0): the sort puts it last.
    return { id: c.id, startMs: c.startedAt.getTime(), endMs: c.endedAt?.getTime() ?? null, ...(own ? { tokens: own.tokens, cost: own.cost } : {}) };
  });
  keys.sort(compareRuns(options.sort, options.order, options.now ?? Date.now()));
  const pageIds = keys.slice(options.skip, options.skip + options.take).map((k) => k.id);
  const byId = new Map((await readRunRowsById(db, pageIds)).map((r) => [r.id, r]));
  const rows = pageIds.map((id) => byId.get(id)).filter((r): r is RunRow => r !== undefined);
  const note = total > candidates.length ? `Ordered the newest ${candidates.length.toLocaleString("en")} of ${total.toLocaleString("en")} matching runs; narrow the filters to order older ones.` : null;
  return { rows, total: Math.min(total, candidates.length), note };
}
