// Reads the price book: the shipped defaults, ZAP_MODEL_PRICES over them (both
// in effect since the epoch) and the admins' dated prices (model_prices rows).
// Cached briefly per database client, and dropped at once by an edit in this
// process; another process (the worker) sees an edit within CACHE_MS.
// No "server-only" here: the worker (plain Node) prices metric rollups with it;
// web code imports lib/pricing/server/price-book.ts.
import type { Db } from "../../db/prisma";
import type { DbTransaction } from "../../db/transactions";
import { getConfig } from "../../config/server/config";
import type { PriceTable } from "../../config/price-table";
import { basePricesOf } from "../defaults";
import { buildPriceBook, type PriceBook } from "../price-book";

/** How long a read book is reused: an edit made by another process shows after at most this. */
export const CACHE_MS = 5_000;

/** Reads the book now (no cache). */
export async function readPriceBook(db: Db | DbTransaction, envPrices: PriceTable = getConfig().models.prices): Promise<PriceBook> {
  const rows = await db.modelPrice.findMany({ orderBy: [{ model: "asc" }, { effectiveFrom: "asc" }] });
  return buildPriceBook(
    basePricesOf(envPrices),
    rows.map((r) => ({
      model: r.model,
      point: { from: r.effectiveFrom.getTime(), input: r.input, output: r.output, cachedRead: r.cachedRead, cachedWrite: r.cachedWrite, reasoning: r.reasoning, source: "admin" as const },
    })),
  );
}

// One cache per process, on globalThis: Next builds each page, route handler and server action as a
// bundle of its own, each with its own copy of this module, and an edit must reach all of them.
const holder = globalThis as typeof globalThis & { zapPriceBooks?: WeakMap<object, { at: number; book: Promise<PriceBook> }> };
const cache = (holder.zapPriceBooks ??= new WeakMap());

/** The book, read at most once per CACHE_MS per client. A failed read is not kept. */
export function cachedPriceBook(db: Db, now: number = Date.now()): Promise<PriceBook> {
  const hit = cache.get(db);
  if (hit && now - hit.at < CACHE_MS) return hit.book;
  const book = readPriceBook(db);
  cache.set(db, { at: now, book });
  void book.catch(() => {
    if (cache.get(db)?.book === book) cache.delete(db);
  });
  return book;
}

/** Drops the cached book of a client (after an edit), so the next read sees the edit. */
export function invalidatePriceBook(db: Db): void {
  cache.delete(db);
}
