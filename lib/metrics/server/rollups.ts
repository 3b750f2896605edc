// Writes the metric rollups in the deriver's transaction (lib/run-ledger/deriver.ts,
// with the rows ledger transactions actually inserted, each once):
// one multi-row INSERT … ON CONFLICT DO UPDATE per few hundred distinct keys, so
// a replayed batch (nothing inserted) adds nothing and concurrent writers add
// up: the increment is done by the database, never read-modify-write here.
// No "server-only" here: the worker (plain Node) loads this module too (the ledger writer, the monitor evaluator).
import type { DbTransaction } from "../../db/transactions";
import { Prisma } from "../../db/generated/sqlite/client";
import type { Db } from "../../db/prisma";
import type { PriceBook } from "../../pricing/price-book";
import { deriveIncrements, type DerivableBatch, type RollupIncrement, type StartedRuns } from "../derive";

const COLUMNS = ["scope", "resolution", "series", "bucket", "label", "graph", "version", "model", "tool", "starter", "bin", "count", "sum"] as const;
const COLUMN_LIST = Prisma.raw(COLUMNS.map((c) => `"${c}"`).join(", "));
const KEY_LIST = Prisma.raw(COLUMNS.slice(0, 11).map((c) => `"${c}"`).join(", "));
/** Rows per statement: 13 parameters each stays well under SQLite's 32,766 and PostgreSQL's 65,535. */
const ROWS_PER_STATEMENT = 400;

type Client = DbTransaction | Db;

/** Adds increments to metric_rollups (rows created at their first increment). */
export async function upsertRollups(tx: Client, increments: readonly RollupIncrement[]): Promise<void> {
  for (let start = 0; start < increments.length; start += ROWS_PER_STATEMENT) {
    const rows = increments.slice(start, start + ROWS_PER_STATEMENT).map((row) => Prisma.sql`(${Prisma.join(COLUMNS.map((column) => row[column]))})`);
    // A tagged template: Prisma writes each database's placeholders (? or $n), so one statement serves both.
    await tx.$executeRaw`INSERT INTO metric_rollups (${COLUMN_LIST}) VALUES ${Prisma.join(rows)}
      ON CONFLICT (${KEY_LIST}) DO UPDATE SET "count" = metric_rollups."count" + excluded."count", "sum" = metric_rollups."sum" + excluded."sum"`;
  }
}

/** Version numbers of the given agent versions, in one query. */
export async function versionNumbers(tx: Client, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.agentVersion.findMany({ where: { id: { in: ids } }, select: { id: true, version: true } });
  return new Map(rows.map((row) => [row.id, row.version]));
}

/** When the decided approvals of these batches were requested: from their approval rows (the request may be in an earlier batch). */
async function requestTimes(tx: Client, batches: readonly DerivableBatch[]): Promise<Map<string, number>> {
  const times = new Map<string, number>();
  const asked = new Set<string>();
  for (const batch of batches) {
    for (const event of batch.events) {
      if (event.type === "approval_requested") times.set(event.approval.id, Date.parse(event.approval.requestedAt));
      else if (event.type === "approval_decided") asked.add(event.approvalId);
    }
  }
  const missing = [...asked].filter((id) => !times.has(id));
  if (missing.length > 0) {
    const rows = await tx.approvalRecord.findMany({ where: { id: { in: missing } }, select: { id: true, requestedAt: true } });
    for (const row of rows) times.set(row.id, row.requestedAt.getTime());
  }
  return times;
}

/** Whether any event of the batches feeds a series (most batches of a busy run carry only iteration and span noise). */
export const DERIVED_TYPES: ReadonlySet<string> = new Set([
  "run_started",
  "run_completed",
  "run_failed",
  "run_cancelled",
  // A follow-up moves its run from completed back to running (the started_* series).
  "user_message",
  "inference_completed",
  "tool_call_completed",
  "approval_requested",
  "approval_decided",
  "budget_extension_requested",
  "routing_decided",
  "output_invalid",
  "plan_finished",
  "plan_node_finished",
  "guardrail_checked",
]);

/** The started_* series' view of the runs of some batches; the ledger reads it (lib/run-ledger/started-runs.ts), as it sits above this module. */
export type StartedRunsReader = (tx: Client, batches: readonly DerivableBatch[]) => Promise<StartedRuns>;

/**
 * The increments of these batches, with what they need from the database read in two queries at most (and the
 * started runs' reads when `readStarted` is given; without it the started_* series are left alone).
 */
export async function incrementsFor(tx: Client, batches: readonly DerivableBatch[], prices: PriceBook, readStarted?: StartedRunsReader): Promise<RollupIncrement[]> {
  const relevant = batches.filter((batch) => batch.events.some((event) => DERIVED_TYPES.has(event.type)));
  if (relevant.length === 0) return [];
  const versionIds = [...new Set(relevant.flatMap((b) => (b.run.agentVersionId ? [b.run.agentVersionId] : [])))];
  const [versions, requested, started] = await Promise.all([versionNumbers(tx, versionIds), requestTimes(tx, relevant), readStarted?.(tx, relevant)]);
  return deriveIncrements(relevant, { versionOf: (id) => versions.get(id) ?? 0, requestedAtOf: (id) => requested.get(id), prices, ...(started ? { started } : {}) });
}

/** Derives and writes the rollups of what ledger transactions inserted (lib/run-ledger/deriver.ts). */
export async function writeMetricRollups(tx: DbTransaction, inserted: readonly DerivableBatch[], prices: PriceBook, readStarted?: StartedRunsReader): Promise<void> {
  const increments = await incrementsFor(tx, inserted, prices, readStarted);
  await upsertRollups(tx, increments);
}
