import "server-only";
// Token and cost roll-up from the ledger. A run's own usage is the sum of its
// inference spans (exact, each priced at its model's price when it ran); a run's
// total adds its sub-runs' own usage, each counted once, so self + sub-runs = total
// by construction.
import type { Db } from "../../db/prisma";
import { readModelTokens } from "../../run-ledger/read";
import { addCosts, costAt, type PriceBook } from "../pricing";
import { periodTime, priceChangeTimes } from "../../pricing/price-book";
import type { UsageCost } from "../schemas";

export const ZERO_USAGE: UsageCost = { tokens: { inputTokens: 0, outputTokens: 0 }, cost: 0 };

export function addUsage(a: UsageCost, b: UsageCost): UsageCost {
  return {
    tokens: { inputTokens: a.tokens.inputTokens + b.tokens.inputTokens, outputTokens: a.tokens.outputTokens + b.tokens.outputTokens },
    cost: addCosts(a.cost, b.cost),
  };
}

/** Own usage of each run, from its inference spans (span name = model id), each priced at its model's price when it ran. */
export async function ownUsage(db: Db, runIds: string[], prices: PriceBook): Promise<Map<string, UsageCost>> {
  const result = new Map<string, UsageCost>(runIds.map((id) => [id, ZERO_USAGE]));
  const changes = priceChangeTimes(prices);
  for (const { runId, model, inputTokens, outputTokens, period } of await readModelTokens(db, runIds, changes)) {
    const tokens = { inputTokens, outputTokens };
    result.set(runId, addUsage(result.get(runId) ?? ZERO_USAGE, { tokens, cost: costAt(prices, model, tokens, periodTime(changes, period)) }));
  }
  return result;
}

/** Total (own + every descendant) per run, given each run's parent and own usage. */
export function rollUp(runs: { id: string; parentRunId: string | null }[], own: Map<string, UsageCost>): Map<string, UsageCost> {
  const children = new Map<string, string[]>();
  for (const run of runs) {
    if (!run.parentRunId) continue;
    children.set(run.parentRunId, [...(children.get(run.parentRunId) ?? []), run.id]);
  }
  const totals = new Map<string, UsageCost>();
  const visit = (id: string, seen: Set<string>): UsageCost => {
    const cached = totals.get(id);
    if (cached) return cached;
    let sum = own.get(id) ?? ZERO_USAGE;
    for (const child of children.get(id) ?? []) if (!seen.has(child)) sum = addUsage(sum, visit(child, new Set([...seen, child])));
    totals.set(id, sum);
    return sum;
  };
  for (const run of runs) visit(run.id, new Set([run.id]));
  return totals;
}
