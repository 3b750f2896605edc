// The rules of spend limits, pure so the page and the tests share them with the
// server: a limit's window, which limits a run start answers to, when a limit is
// reached and the one line a refused start reads.
import { formatCost } from "../format/figures";
import type { SpendMeasure, SpendPeriod, SpendScope } from "./schemas";

/** The UTC calendar day or month holding `now`: [start, end). */
export function windowOf(period: SpendPeriod, now: Date): { start: Date; end: Date } {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  if (period === "month") return { start: new Date(Date.UTC(y, m, 1)), end: new Date(Date.UTC(y, m + 1, 1)) };
  const d = now.getUTCDate();
  return { start: new Date(Date.UTC(y, m, d)), end: new Date(Date.UTC(y, m, d + 1)) };
}

/** Who starts a run, as far as limits go. */
export interface LaunchScope {
  graph: string;
  userId: string;
  /** The API key the request was made with (null: a session, a schedule, a webhook). */
  apiKeyId: string | null;
}

/** The (scope, scopeId) pairs whose limits a run start answers to. */
export function scopesOf(launch: LaunchScope): { scope: SpendScope; scopeId: string }[] {
  return [
    { scope: "workspace", scopeId: "" },
    { scope: "graph", scopeId: launch.graph },
    { scope: "user", scopeId: launch.userId },
    ...(launch.apiKeyId ? [{ scope: "api_key" as const, scopeId: launch.apiKeyId }] : []),
  ];
}

/**
 * A limit is reached once the priced spend of its window is at or over it: a
 * run's cost is only known once it ran, so the run that passes the limit is the
 * last one started. Unpriced usage does not count toward it (its cost is
 * unknown, not $0): the page shows it beside the figure.
 */
export function limitReached(amountUsd: number, spend: SpendMeasure): boolean {
  return spend.pricedUsd >= amountUsd;
}

const PERIOD_WORDS: Record<SpendPeriod, string> = { day: "daily", month: "monthly" };

/** How a limit is named in a refusal: `the daily spend limit of graph "support" ($5.00)`. */
export function limitName(limit: { scope: SpendScope; scopeLabel: string; period: SpendPeriod; amountUsd: number }): string {
  const of = limit.scope === "workspace" ? "the workspace" : limit.scope === "graph" ? `graph "${limit.scopeLabel}"` : limit.scope === "user" ? `user ${limit.scopeLabel}` : `API key "${limit.scopeLabel}"`;
  return `the ${PERIOD_WORDS[limit.period]} spend limit of ${of} (${formatCost(limit.amountUsd)})`;
}

/** The one line a refused start reads. */
export function refusalMessage(limit: { scope: SpendScope; scopeLabel: string; period: SpendPeriod; amountUsd: number }, spend: SpendMeasure, windowEnd: Date): string {
  return `Spend limit reached: ${formatCost(spend.pricedUsd)} spent of ${limitName(limit)}; new runs are refused until ${windowEnd.toISOString().slice(0, 16).replace("T", " ")} UTC or an admin raises the limit.`;
}

/** Prices `usage` on `model` at `at` (ms): dollars, or null when the model has no price then. */
export type PriceAt = (model: string, usage: { inputTokens: number; outputTokens: number }, at: number) => number | null;

/** Sums hourly usage into a measure: priced hours add dollars, unpriced ones add their tokens and model (never $0). */
export function measureOf(rows: readonly { model: string; firstMs: number; inputTokens: number; outputTokens: number }[], price: PriceAt): SpendMeasure {
  let pricedUsd = 0;
  let unpricedTokens = 0;
  const unpriced = new Set<string>();
  for (const row of rows) {
    const cost = price(row.model, row, row.firstMs);
    if (cost === null) {
      unpricedTokens += row.inputTokens + row.outputTokens;
      unpriced.add(row.model);
    } else pricedUsd += cost;
  }
  return { pricedUsd, unpricedTokens, unpricedModels: [...unpriced].sort() };
}
