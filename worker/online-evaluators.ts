// At boot the worker ensures the workflow of every enabled online evaluator and
// every running backfill (lib/online-eval/temporal.ts): a start the web server
// could not make (Temporal down), or a workflow that ended by mistake, is made
// up here. Idempotent (USE_EXISTING), so every worker may do it; a failure is
// logged, not fatal: runs go on, the next worker tries again.
import { Client } from "@temporalio/client";
import type { NativeConnection } from "@temporalio/worker";
import type { AppConfig } from "../lib/config/env";
import type { Db } from "../lib/db/prisma";
import { ensureEvaluatorWorkflow, startBackfillWorkflow } from "../lib/online-eval/temporal";

export async function ensureOnlineEvaluators(client: Client, taskQueue: string, db: Db): Promise<{ evaluators: number; backfills: number; failed: number }> {
  const [evaluators, backfills] = await Promise.all([
    db.onlineEvaluator.findMany({ where: { enabled: true }, select: { id: true } }),
    db.onlineEvaluationBackfill.findMany({ where: { status: "running" }, select: { id: true } }),
  ]);
  let failed = 0;
  for (const { id } of evaluators) {
    try {
      await ensureEvaluatorWorkflow(client, taskQueue, id);
    } catch (error) {
      failed++;
      console.error(`worker: the workflow of evaluator ${id} was not started: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  for (const { id } of backfills) {
    try {
      await startBackfillWorkflow(client, taskQueue, id);
    } catch (error) {
      failed++;
      console.error(`worker: backfill ${id} was not resumed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { evaluators: evaluators.length, backfills: backfills.length, failed };
}

/** The worker's boot step. */
export async function startOnlineEvaluators(connection: NativeConnection, config: AppConfig, db: Db): Promise<void> {
  const { taskQueue, namespace } = config.temporal;
  try {
    const outcome = await ensureOnlineEvaluators(new Client({ connection, namespace }), taskQueue, db);
    if (outcome.evaluators || outcome.backfills) console.log(`worker: online evaluation ensured for ${outcome.evaluators} evaluators and ${outcome.backfills} backfills (${outcome.failed} failed)`);
  } catch (error) {
    console.error(`worker: online evaluators not ensured: ${error instanceof Error ? error.message : String(error)}`);
  }
}
