// The one reader of metric_rollups: sums rows per (series, time slot, breakdown
// key, histogram bin) in the database, over the rollups of one resolution. The
// primary key starts (scope, resolution, series, bucket), so each series' range is one
// index range scan; nothing is summed in the web server but those groups.
// No "server-only" here: the worker (plain Node) loads this module too (the ledger writer, the monitor evaluator).
import type { Db } from "../../db/prisma";
import type { DbTransaction } from "../../db/transactions";
import { Prisma } from "../../db/generated/sqlite/client";
import { scopeFor } from "../scopes";
import { METRIC_SERIES, type MetricBreakdown, type MetricSeriesDef, type MetricFilters, type StoredSeriesName } from "../schemas";

export interface RollupQuery {
  /** Bucket length in minutes (1, 60, 1440). */
  resolution: number;
  series: readonly StoredSeriesName[];
  /** Bucket starts in minutes since the epoch: from (inclusive, aligned to `stepMinutes`) to (exclusive). */
  fromMinute: number;
  toMinute: number;
  /** Width of a slot in minutes (a multiple of the resolution). */
  stepMinutes: number;
  breakdown: MetricBreakdown;
  filters: MetricFilters;
  /** Only rows with this label. */
  label?: string;
}

/** One group: a series' count and sum in one slot, for one breakdown key and bin. */
export interface RollupGroup {
  series: StoredSeriesName;
  slot: number;
  key: string;
  bin: number;
  count: number;
  sum: number;
}

const BREAKDOWN_COLUMN: Record<MetricBreakdown, Prisma.Sql> = {
  none: Prisma.sql`CAST('' AS TEXT)`,
  graph: Prisma.sql`graph`,
  version: Prisma.sql`CAST(version AS TEXT)`,
  model: Prisma.sql`model`,
  tool: Prisma.sql`tool`,
  starter: Prisma.sql`starter`,
  label: Prisma.sql`label`,
};

function hasDimension(series: StoredSeriesName, dimension: "model" | "tool"): boolean {
  const definition: MetricSeriesDef = METRIC_SERIES[series];
  return definition.dimensions?.includes(dimension) ?? false;
}

/**
 * Conditions of one series' rows. A model or tool filter applies to series that
 * record that dimension; the others (runs started, routing…) are not split by
 * model or tool, so they stay whole rather than read as zero.
 */
function conditions(series: StoredSeriesName, query: RollupQuery): Prisma.Sql[] {
  const { filters } = query;
  const parts = [Prisma.sql`series = ${series}`];
  if (filters.graph !== undefined) parts.push(Prisma.sql`graph = ${filters.graph}`);
  if (filters.version !== undefined) parts.push(Prisma.sql`version = ${filters.version}`);
  if (filters.startedBy !== undefined) parts.push(Prisma.sql`starter = ${filters.startedBy}`);
  if (filters.model !== undefined && hasDimension(series, "model")) parts.push(Prisma.sql`model = ${filters.model}`);
  if (filters.tool !== undefined && hasDimension(series, "tool")) parts.push(Prisma.sql`tool = ${filters.tool}`);
  if (query.label !== undefined) parts.push(Prisma.sql`label = ${query.label}`);
  return parts;
}

/** Sums the rollups of `query.series` per slot, breakdown key and bin. */
export async function readRollupGroups(db: Db | DbTransaction, query: RollupQuery): Promise<RollupGroup[]> {
  if (query.series.length === 0 || query.toMinute <= query.fromMinute) return [];
  const key = BREAKDOWN_COLUMN[query.breakdown];
  // The smallest projection holding the filtered and broken-down dimensions (lib/metrics/scopes.ts).
  const scope = scopeFor(query.filters, query.breakdown);
  // One branch per series, each an index range on (resolution, series, bucket), joined by UNION ALL.
  const branches = query.series.map(
    (series) => Prisma.sql`SELECT series, (bucket - CAST(${query.fromMinute} AS INTEGER)) / CAST(${query.stepMinutes} AS INTEGER) AS slot, ${key} AS k, bin, "count", "sum"
      FROM metric_rollups
      WHERE scope = CAST(${scope} AS INTEGER) AND resolution = CAST(${query.resolution} AS INTEGER) AND bucket >= CAST(${query.fromMinute} AS INTEGER) AND bucket < CAST(${query.toMinute} AS INTEGER) AND ${Prisma.join(conditions(series, query), " AND ")}`,
  );
  const rows = await db.$queryRaw<{ series: string; slot: number | bigint; k: string; bin: number | bigint; c: number | bigint; s: number | null }[]>`
    SELECT series, slot, k, bin, SUM("count") AS c, SUM("sum") AS s
    FROM (${Prisma.join(branches, " UNION ALL ")}) AS picked
    GROUP BY series, slot, k, bin`;
  return rows.map((row) => ({
    series: row.series as StoredSeriesName,
    slot: Number(row.slot),
    key: row.k,
    bin: Number(row.bin),
    count: Number(row.c),
    sum: Number(row.s ?? 0),
  }));
}
