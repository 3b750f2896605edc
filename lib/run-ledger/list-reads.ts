// Reads behind the runs list's sorts and the "stuck or burning" view's inbox
// links: many runs' times at once, their trees' model tokens summed by the
// database, and the calls a tree waits on. Beside ./read.ts, sharing its filter.
import { msSql, pricePeriodSql } from "./price-periods";
import type { Db } from "../db/prisma";
import { dbProvider } from "../db/transactions";
import { runWhere, type RunRow, type RunRowFilter } from "./read";

/** A run's id and times: what a sort by duration needs, read for many runs at once. */
export interface RunTimesRow {
  id: string;
  startedAt: Date;
  endedAt: Date | null;
}

/** The newest `take` runs matching `filter` as ids and times, and how many match in all (a sort by duration or usage orders these). */
export async function readRunTimes(db: Db, filter: RunRowFilter, take: number): Promise<{ rows: RunTimesRow[]; total: number }> {
  const where = runWhere(filter);
  const [total, rows] = await Promise.all([
    db.run.count({ where }),
    db.run.findMany({ where, orderBy: [{ startedAt: "desc" }, { id: "asc" }], take, select: { id: true, startedAt: true, endedAt: true } }),
  ]);
  return { rows, total };
}

/** Runs by id, in no order. */
export function readRunRowsById(db: Db, ids: string[]): Promise<RunRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.run.findMany({ where: { id: { in: ids } } });
}

/** Tokens of a tree's model calls (every run under the root, the root too), summed per model. */
export interface TreeModelTokens {
  rootRunId: string;
  model: string;
  inputTokens: number;
  outputTokens: number;  /** The price period the calls ran in (lib/run-ledger/price-periods.ts). */
  period: number;
}

/** Bound parameters per statement for the trees' tokens (the SQLite adapter allows 999). */
const TREE_IDS_PER_QUERY = 500;

/**
 * The tokens of the given trees' model calls, summed per tree and model by the
 * database (the same inference spans readModelTokens reads per run, so a tree's
 * sum is the list's rolled-up total).
 */
export async function readTreeModelTokens(db: Db, rootRunIds: readonly string[], priceChanges: readonly number[] = []): Promise<TreeModelTokens[]> {
  const postgres = dbProvider(db) === "postgresql";
  const period = pricePeriodSql(msSql(postgres, "s.started_at"), priceChanges);
  const token = (field: string) => (postgres ? `coalesce(sum((s.data::jsonb #>> '{tokens,${field}}')::bigint), 0)::float8` : `coalesce(sum(json_extract(s.data, '$.tokens.${field}')), 0)`);
  const hasTokens = postgres ? `s.data::jsonb ? 'tokens'` : `json_type(s.data, '$.tokens') IS NOT NULL`;
  const result: TreeModelTokens[] = [];
  for (let at = 0; at < rootRunIds.length; at += TREE_IDS_PER_QUERY) {
    const chunk = rootRunIds.slice(at, at + TREE_IDS_PER_QUERY);
    const ids = chunk.map((_, i) => (postgres ? `$${i + 1}` : `?${i + 1}`)).join(", ");
    const rows = await db.$queryRawUnsafe<{ rootRunId: string; model: string; inputTokens: number | bigint; outputTokens: number | bigint; period: number | bigint }[]>(
      `SELECT r.root_run_id AS "rootRunId", s.name AS model, ${token("inputTokens")} AS "inputTokens", ${token("outputTokens")} AS "outputTokens", ${period} AS period
       FROM runs r JOIN run_spans s ON s.run_id = r.id
       WHERE r.root_run_id IN (${ids}) AND s.kind = 'inference' AND ${hasTokens} GROUP BY r.root_run_id, s.name${priceChanges.length ? `, ${period}` : ""}`,
      ...chunk,
    );
    for (const r of rows) result.push({ rootRunId: r.rootRunId, model: r.model, inputTokens: Number(r.inputTokens), outputTokens: Number(r.outputTokens), period: Number(r.period) });
  }
  return result;
}

/** A call waiting for a decision, as the runs list links it to the inbox. */
export interface PendingApprovalRef {
  id: string;
  runId: string;
  rootRunId: string;
  toolName: string;
  requestedAt: Date;
}

/** The pending approvals of these trees, oldest request first. */
export function readPendingApprovalsOfTrees(db: Db, rootRunIds: string[]): Promise<PendingApprovalRef[]> {
  if (rootRunIds.length === 0) return Promise.resolve([]);
  return db.approvalRecord.findMany({
    where: { rootRunId: { in: rootRunIds }, status: "pending" },
    select: { id: true, runId: true, rootRunId: true, toolName: true, requestedAt: true },
    orderBy: [{ requestedAt: "asc" }, { id: "asc" }],
  });
}
