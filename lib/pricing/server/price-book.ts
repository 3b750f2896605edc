import "server-only";
// The web server's price book (lib/pricing/price-book.ts prices with it):
// cached briefly, dropped when an admin edits a price (lib/pricing/server/prices.ts).
// The worker, which may not import "server-only" modules, reads it through
// read-price-book.ts with its own client.
import { getDb } from "../../db/server/db";
import type { Db } from "../../db/prisma";
import type { PriceBook } from "../price-book";
import { cachedPriceBook } from "./read-price-book";

export type { PriceBook } from "../price-book";

/** Every model's prices and their history, as of at most a few seconds ago (or the last edit in this process); `db`: a reader's own client. */
export function loadPriceBook(db: Db = getDb()): Promise<PriceBook> {
  return cachedPriceBook(db);
}
