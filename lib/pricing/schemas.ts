// Browser-safe schemas of the price table's operations (lib/pricing/server/prices.ts):
// the admin page's actions, /api/prices and the TypeScript client send these.
import { z } from "zod";
import type { PricePoint, PriceRates } from "./price-book";

/** A model id as runs name it, `<provider>/<model>` (the characters ZAP_MODEL_PRICES allows). */
export const priceModelSchema = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_.:-]+\/[A-Za-z0-9_./:-]+$/, "expected <provider>/<model>, e.g. openai/gpt-4o");

/** US dollars per million tokens. */
const rate = z.number({ error: "expected US dollars per million tokens" }).finite().min(0, "a price is never negative").max(1_000_000);

export const setModelPriceSchema = z.strictObject({
  model: priceModelSchema,
  input: rate,
  output: rate,
  /** Null or absent: as `input`. */
  cachedRead: rate.nullable().optional(),
  /** Null or absent: as `input`. */
  cachedWrite: rate.nullable().optional(),
  /** Null or absent: as `output`. */
  reasoning: rate.nullable().optional(),
  /** When the price takes effect (ISO 8601); absent: now. A time in the past reprices the steps since then. */
  effectiveFrom: z.iso.datetime({ offset: true, error: "expected an ISO 8601 time, e.g. 2026-11-30T00:00:00Z" }).optional(),
});
export type SetModelPriceInput = z.infer<typeof setModelPriceSchema>;

export const removeModelPriceSchema = z.strictObject({ id: z.string().min(1).max(100) });
export const listModelPricesSchema = z.strictObject({});

/** One price of the table: an admin's dated row (with its id) or a base price (shipped default or ZAP_MODEL_PRICES, in effect since the epoch). */
export interface ModelPriceEntry extends Omit<PricePoint, "from"> {
  /** The row's id (admin prices only). */
  id: string | null;
  model: string;
  /** ISO time; the epoch for base prices. */
  effectiveFrom: string;
  /** Who set it (admin prices only). */
  setBy: string | null;
}

/** Every model's prices, history included, ascending by model then time. */
export interface ModelPriceList {
  entries: ModelPriceEntry[];
}

/** What setting a price answers: the saved row. */
export interface SavedModelPrice extends PriceRates {
  id: string;
  model: string;
  effectiveFrom: string;
}
