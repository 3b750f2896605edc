// The prices Zap Studio ships with, for the providers it calls (lib/models):
// list prices in US dollars per million tokens, as published by OpenAI and
// Anthropic when this table was written (November 2026). They are DEFAULTS:
// ZAP_MODEL_PRICES overrides them, and an admin's price on /admin/prices
// overrides both from its effective time. openai-compatible servers have no
// defaults (their models are not knowable from their names), so their models
// are unpriced until someone prices them. docs/pricing.md lists them.
import type { PriceTable } from "../config/price-table";
import type { PriceRates, PriceSource } from "./price-book";

// Both providers bill reasoning tokens as output, so `reasoning` is null (= output).
// OpenAI caches automatically with no write surcharge, so `cachedWrite` is null (= input).
const openai = (input: number, output: number, cachedRead: number): PriceRates => ({ input, output, cachedRead, cachedWrite: null, reasoning: null });
// Anthropic: a 5-minute cache write costs 1.25 × input, a cache read 0.1 × input.
const anthropic = (input: number, output: number): PriceRates => ({ input, output, cachedRead: round(input * 0.1), cachedWrite: round(input * 1.25), reasoning: null });
const round = (n: number) => Math.round(n * 1e6) / 1e6;

export const DEFAULT_PRICES: Readonly<Record<string, PriceRates>> = {
  "openai/gpt-4o": openai(2.5, 10, 1.25),
  "openai/gpt-4o-mini": openai(0.15, 0.6, 0.075),
  "openai/gpt-4.1": openai(2, 8, 0.5),
  "openai/gpt-4.1-mini": openai(0.4, 1.6, 0.1),
  "openai/gpt-4.1-nano": openai(0.1, 0.4, 0.025),
  "openai/gpt-5": openai(1.25, 10, 0.125),
  "openai/gpt-5-mini": openai(0.25, 2, 0.025),
  "openai/gpt-5-nano": openai(0.05, 0.4, 0.005),
  "openai/o1": openai(15, 60, 7.5),
  "openai/o3": openai(2, 8, 0.5),
  "openai/o3-mini": openai(1.1, 4.4, 0.55),
  "openai/o4-mini": openai(1.1, 4.4, 0.275),
  "anthropic/claude-opus-4": anthropic(15, 75),
  "anthropic/claude-opus-4-1": anthropic(15, 75),
  "anthropic/claude-opus-4-5": anthropic(5, 25),
  "anthropic/claude-sonnet-4": anthropic(3, 15),
  "anthropic/claude-sonnet-4-5": anthropic(3, 15),
  "anthropic/claude-3-7-sonnet": anthropic(3, 15),
  "anthropic/claude-haiku-4-5": anthropic(1, 5),
  "anthropic/claude-3-5-haiku": anthropic(0.8, 4),
};

/** The base prices (in effect since the epoch): the defaults, then ZAP_MODEL_PRICES over them. */
export function basePricesOf(envPrices: PriceTable): { model: string; rates: PriceRates; source: PriceSource }[] {
  const base = new Map<string, { model: string; rates: PriceRates; source: PriceSource }>();
  for (const [model, rates] of Object.entries(DEFAULT_PRICES)) base.set(model, { model, rates, source: "default" });
  for (const [model, p] of Object.entries(envPrices)) {
    // ZAP_MODEL_PRICES names input and output only: cached and reasoning fall back to them.
    base.set(model, { model, rates: { input: p.input, output: p.output, cachedRead: null, cachedWrite: null, reasoning: null }, source: "env" });
  }
  return [...base.values()];
}
