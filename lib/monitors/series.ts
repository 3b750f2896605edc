// The one reader of a monitor's series: the dashboard's series through
// lib/metrics' seriesValue, and the monitor-only series read here from the
// live tables. The evaluator (worker) and the page's preview (web) both use it.
import type { Db } from "../db/prisma";
import type { MetricFilters } from "../metrics/schemas";
import type { SeriesReader } from "./evaluate";
import { MONITOR_ONLY_SERIES } from "./schemas";
import { meanEvaluatorScore } from "../online-eval/score-series";

/** lib/metrics/server/series-value.ts's signature, passed in so this module loads in the worker and the web alike. */
export type MetricSeriesValue = (db: Db, query: Parameters<SeriesReader>[1] & { series: Exclude<Parameters<SeriesReader>[1]["series"], keyof typeof MONITOR_ONLY_SERIES> }) => Promise<number | null>;

/** How long the oldest pending approval (of `filters.tool`, when given) has waited, in ms; 0 when none waits. */
async function oldestApprovalWait(db: Db, filters: MetricFilters, now: Date): Promise<number> {
  const oldest = await db.approvalRecord.findFirst({
    where: { status: "pending", ...(filters.tool ? { toolName: filters.tool } : {}) },
    orderBy: { requestedAt: "asc" },
    select: { requestedAt: true },
  });
  return oldest ? Math.max(0, now.getTime() - oldest.requestedAt.getTime()) : 0;
}

/** lib/spend-limits/server/share.ts's highestSpendShare, passed in like seriesValue: the highest share of a spend limit spent now (null: no limit). */
export type SpendShareReader = (db: Db, graph: string | undefined, now: Date) => Promise<number | null>;

export function monitorSeriesReader(seriesValue: MetricSeriesValue, now: () => Date = () => new Date(), spendShare: SpendShareReader = async () => null): SeriesReader {
  return (db, query) => {
    if (query.series === "approvals_oldest_wait") return oldestApprovalWait(db, query.filters, now());
    if (query.series === "spend_limit_used") return spendShare(db, query.filters.graph, now());
    if (query.series === "evaluator_score") return query.label ? meanEvaluatorScore(db, { evaluator: query.label, windowMinutes: query.windowMinutes, filters: query.filters, now: now() }) : Promise.resolve(null);
    return seriesValue(db, { ...query, series: query.series });
  };
}
