// The SQL that numbers a span's price period (lib/pricing/price-book.ts
// priceChangeTimes): grouping by it, summed tokens are priced at the price in
// effect when each step ran, in one aggregate.

/** `CASE WHEN <ms> < c1 THEN 0 WHEN <ms> < c2 THEN 1 … ELSE n END` over `msExpression`, or `0` with no changes (then not grouped by: a number in GROUP BY is a column position). */
export function pricePeriodSql(msExpression: string, changes: readonly number[]): string {
  if (changes.length === 0) return "0";
  // The times are the book's own integers, written inline: no bound parameters to count.
  const whens = changes.map((t, i) => {
    if (!Number.isSafeInteger(t)) throw new Error(`not a time in ms: ${t}`);
    return `WHEN ${msExpression} < ${t} THEN ${i}`;
  });
  return `CASE ${whens.join(" ")} ELSE ${changes.length} END`;
}

/** A column's time in ms since the epoch, per provider (Prisma stores UTC: ISO text on SQLite, timestamp(3) on PostgreSQL). */
export function msSql(postgres: boolean, column: string): string {
  return postgres ? `(extract(epoch FROM ${column}) * 1000)::bigint` : `CAST(round(unixepoch(${column}, 'subsec') * 1000) AS INTEGER)`;
}
