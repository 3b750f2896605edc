// The monitors' spend series (spend_limit_used, lib/monitors/series.ts): the
// highest share of any spend limit spent in its current window, 1 meaning
// reached. No "server-only": the worker's monitor evaluator reads it too.
import type { Db } from "../../db/prisma";
import { windowOf } from "../rules";
import type { SpendPeriod, SpendScope } from "../schemas";
import { currentPricing, spendOf } from "./spend";

/** The highest spend / limit of every limit (a graph's only, when named); null when there is none. A $0 limit counts as reached (1). */
export async function highestSpendShare(db: Db, graph: string | undefined, now: Date): Promise<number | null> {
  const limits = await db.spendLimit.findMany({ where: graph === undefined ? {} : { scope: "graph", scopeId: graph } });
  if (limits.length === 0) return null;
  const price = await currentPricing(db);
  let highest = 0;
  for (const limit of limits) {
    const spend = await spendOf(db, { scope: limit.scope as SpendScope, scopeId: limit.scopeId }, windowOf(limit.period as SpendPeriod, now), price);
    highest = Math.max(highest, limit.amountUsd > 0 ? spend.pricedUsd / limit.amountUsd : 1);
  }
  return highest;
}
