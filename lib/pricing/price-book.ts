// The price book: each model's token prices and their history, and the cost of
// token usage at a time (a step is priced at the price in effect when it ran,
// so a price change never rewrites what past runs cost). Pure, browser-safe and
// JSON-serialisable, so a page can price what the server sent and tests need no
// database. Where the book comes from: lib/pricing/server/price-book.ts.

/** US dollars per million tokens. `null` rates fall back: cached read/write to `input`, reasoning to `output` (how providers bill them when they do not price them apart). */
export interface PriceRates {
  input: number;
  output: number;
  cachedRead: number | null;
  cachedWrite: number | null;
  reasoning: number | null;
}

/** Where a price came from, for the admin page: the shipped defaults, ZAP_MODEL_PRICES, or an admin's edit. */
export type PriceSource = "default" | "env" | "admin";

/** Rates in effect from `from` (ms since the epoch) until the model's next point. */
export interface PricePoint extends PriceRates {
  from: number;
  source: PriceSource;
}

/** Each model's price points, ascending by `from`. A model with no point in effect is unpriced (demo/* models: $0). */
export interface PriceBook {
  readonly models: Readonly<Record<string, readonly PricePoint[]>>;
}

/**
 * Token counts of a step. The optional counts are disjoint from the others:
 * `inputTokens` is input that was neither read from nor written to a cache, and
 * `outputTokens` excludes `reasoningTokens`. Usage recorded today has only input and output.
 */
export interface PricedUsage {
  inputTokens: number;
  outputTokens: number;
  cachedReadTokens?: number;
  cachedWriteTokens?: number;
  reasoningTokens?: number;
}

export const EMPTY_PRICE_BOOK: PriceBook = { models: {} };

const FREE: PriceRates = { input: 0, output: 0, cachedRead: 0, cachedWrite: 0, reasoning: 0 };

/** The demo catalogue's models (worker/models) cost nothing unless an admin prices them (to exercise spend offline). */
export function isDemoModel(model: string): boolean {
  return model.startsWith("demo/");
}

const timeOf = (at: Date | number): number => (typeof at === "number" ? at : at.getTime());

/** The point in effect at `at` (the last with `from` ≤ at), or null. */
export function pointAt(book: PriceBook, model: string, at: Date | number): PricePoint | null {
  const points = book.models[model];
  if (!points) return null;
  const t = timeOf(at);
  let found: PricePoint | null = null;
  for (const point of points) {
    if (point.from > t) break;
    found = point;
  }
  return found;
}

/** The rates of `model` at `at`, or null when it is unpriced then (never a silent $0). */
export function priceAt(book: PriceBook, model: string, at: Date | number): PriceRates | null {
  return pointAt(book, model, at) ?? (isDemoModel(model) ? FREE : null);
}

/** Cost in US dollars of `usage` on `model` at `at`, or null when the model is unpriced at that time. */
export function costAt(book: PriceBook, model: string, usage: PricedUsage, at: Date | number): number | null {
  const rates = priceAt(book, model, at);
  if (!rates) return null;
  const micro =
    usage.inputTokens * rates.input +
    usage.outputTokens * rates.output +
    (usage.cachedReadTokens ?? 0) * (rates.cachedRead ?? rates.input) +
    (usage.cachedWriteTokens ?? 0) * (rates.cachedWrite ?? rates.input) +
    (usage.reasoningTokens ?? 0) * (rates.reasoning ?? rates.output);
  return micro / 1_000_000;
}

/** Whether the model's price differs anywhere in (from, to]: a span of steps within it may be priced once (at either end). */
export function priceChangesWithin(book: PriceBook, model: string, from: number, to: number): boolean {
  return (book.models[model] ?? []).some((p) => p.from > from && p.from <= to);
}

/** Adds costs; any unknown part makes the sum unknown (so a partial sum is never shown as the total). */
export function addCosts(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}

/**
 * A book from base prices in effect since the epoch (shipped defaults, then
 * ZAP_MODEL_PRICES over them) and dated points (admins' edits) after them.
 * Points need not be sorted; a dated point at the same time as another of its
 * model replaces it.
 */
export function buildPriceBook(base: ReadonlyArray<{ model: string; rates: PriceRates; source: PriceSource }>, dated: ReadonlyArray<{ model: string; point: PricePoint }>): PriceBook {
  const models: Record<string, PricePoint[]> = {};
  for (const { model, rates, source } of base) models[model] = [{ ...rates, from: 0, source }];
  for (const { model, point } of dated) {
    const points = (models[model] ??= []);
    const same = points.findIndex((p) => p.from === point.from);
    if (same >= 0) points[same] = point;
    else points.push(point);
  }
  for (const points of Object.values(models)) points.sort((a, b) => a.from - b.from);
  return { models };
}

/**
 * The times at which some model's price changes (ascending, the epoch left
 * out): between two of them every model has one price, so the database can sum
 * tokens per period and each sum be priced once, exactly (pricePeriodSql).
 */
export function priceChangeTimes(book: PriceBook): number[] {
  const times = new Set<number>();
  for (const points of Object.values(book.models)) for (const p of points) if (p.from > 0) times.add(p.from);
  return [...times].sort((a, b) => a - b);
}

/** A time inside period `period` of `changes` (period 0 is before the first change; period i starts at changes[i − 1]). */
export function periodTime(changes: readonly number[], period: number): number {
  if (period <= 0) return (changes[0] ?? Date.now() + 1) - 1;
  return changes[period - 1] ?? Date.now();
}

/** A book of input/output prices in effect since the epoch (ZAP_MODEL_PRICES' shape), e.g. for tests and benchmarks. */
export function priceBookOf(table: Readonly<Record<string, { input: number; output: number }>>): PriceBook {
  return buildPriceBook(
    Object.entries(table).map(([model, p]) => ({ model, rates: { input: p.input, output: p.output, cachedRead: null, cachedWrite: null, reasoning: null }, source: "env" as const })),
    [],
  );
}
