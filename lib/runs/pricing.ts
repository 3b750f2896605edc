// Model prices per million tokens and the cost of token usage. Pure, so the
// browser can format what the server computed and tests need no database.
import type { TokenUsage } from "../contract/types";
import type { ModelPrice, PriceTable } from "../config/price-table";

export type { ModelPrice, PriceTable } from "../config/price-table";

/** The price of a model: demo models are free, unknown models have no price (null). */
export function priceOf(model: string, table: PriceTable): ModelPrice | null {
  if (model.startsWith("demo/")) return { input: 0, output: 0 };
  return table[model] ?? null;
}

/** Cost in dollars of `usage` on `model`, or null when its price is unknown. */
export function costOf(model: string, usage: TokenUsage, table: PriceTable): number | null {
  const price = priceOf(model, table);
  if (!price) return null;
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
}

/** Adds costs; any unknown part makes the sum unknown (so a partial sum is never shown as the total). */
export function addCosts(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}

// Written by the product's one formatter (lib/format/figures.ts); re-exported for the pages that read them here.
export { formatCost, formatTokens } from "../format/figures";
