// What the run pages price with: the price book (lib/pricing/price-book.ts),
// where each model call is priced at the price in effect when it ran. Pure, so
// the browser can price what the server sent and tests need no database.
export { addCosts, costAt, EMPTY_PRICE_BOOK, type PriceBook, type PricedUsage } from "../pricing/price-book";

// Written by the product's one formatter (lib/format/figures.ts); re-exported for the pages that read them here.
export { formatCost, formatTokens } from "../format/figures";
