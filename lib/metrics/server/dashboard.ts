// The dashboard's one read (GET /api/metrics, the client's metrics(), the
// overview page's server shell): every requested series over a range, from the
// rollups at the range's resolution, in one SQL statement, plus the pending
// approvals gauge and how far the rollups are behind the ledger (the deriver
// fills them after the ledger's transaction). Access is checked by the caller's door (permission "read").
import "server-only";
import type { Db } from "../../db/prisma";
import { getDb } from "../../db/server/db";
import { readDeriveLag } from "../../db/derive-lag";
import { PERCENTILE_RELATIVE_ERROR, RESOLUTION_MINUTES } from "../histogram";
import { indexGroups, seriesData, seriesTotal, splitsByKey, storedSeriesOf, timeGrid } from "../assemble";
import { METRIC_SERIES_NAMES, metricsQuerySchema, type MetricsDashboard, type MetricSeriesName, type MetricsQueryInput } from "../schemas";
import { readRollupGroups } from "./read";
import { pendingApprovalsNow } from "./pending";

/** Reads the dashboard for a query already parsed by metricsQuerySchema (the doors parse it to answer 422 with the field). */
export async function readMetricsDashboard(db: Db, input: MetricsQueryInput, now: Date = new Date()): Promise<MetricsDashboard> {
  const query = metricsQuerySchema.parse(input);
  const grid = timeGrid(query.range, now.getTime(), query.from !== undefined && query.to !== undefined ? { from: query.from, to: query.to } : undefined);
  const requested: MetricSeriesName[] = query.series ?? METRIC_SERIES_NAMES;
  const stored = [...new Set(requested.flatMap(storedSeriesOf))];
  const { graph, version, model, tool, startedBy } = query;
  const filters = Object.fromEntries(Object.entries({ graph, version, model, tool, startedBy }).filter(([, value]) => value !== undefined));
  // The lag is read before the rollups, not beside them: a pass that derives between the two reads then
  // shows as still queued (one more read a second later), never as counted while the rollups missed it.
  const derived = await readDeriveLag(db, now);
  const [groups, pendingApprovals] = await Promise.all([
    readRollupGroups(db, {
      resolution: RESOLUTION_MINUTES[grid.resolution],
      series: stored,
      fromMinute: grid.fromMinute,
      toMinute: grid.toMinute,
      stepMinutes: grid.stepMinutes,
      breakdown: query.breakdown,
      filters,
    }),
    pendingApprovalsNow(db, filters, now),
  ]);
  const index = indexGroups(groups, grid.slots);
  const totals = Object.fromEntries(METRIC_SERIES_NAMES.map((name) => [name, null])) as MetricsDashboard["totals"];
  const series: MetricsDashboard["series"] = {};
  for (const name of requested) {
    series[name] = seriesData(name, index, grid, splitsByKey(name, query.breakdown));
    totals[name] = name === "approvals_pending" ? pendingApprovals.count : seriesTotal(name, index);
  }
  return {
    range: {
      from: new Date(grid.fromMinute * 60_000).toISOString(),
      // Where the range ends (now), not where its last slot will end: that slot is still being filled.
      to: new Date(grid.endMs).toISOString(),
      stepSeconds: grid.stepMinutes * 60,
      resolution: grid.resolution,
    },
    breakdown: query.breakdown,
    filters,
    totals,
    series,
    pendingApprovals,
    percentileRelativeError: PERCENTILE_RELATIVE_ERROR,
    derived,
    generatedAt: now.toISOString(),
  };
}

/** The dashboard for the application's database (the overview page's server shell calls this after its own access check). */
export function metricsDashboard(input: MetricsQueryInput): Promise<MetricsDashboard> {
  return readMetricsDashboard(getDb(), input);
}
