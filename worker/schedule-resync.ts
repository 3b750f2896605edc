// At boot the worker brings every schedule's Temporal Schedule in line with its
// row (lib/schedules/temporal.ts): a change whose Temporal call failed on the
// web server (its row shows the sync error) is applied here at the latest.
// Idempotent, so every worker may do it; a failure is logged, not fatal.
import { Client } from "@temporalio/client";
import type { NativeConnection } from "@temporalio/worker";
import type { AppConfig } from "../lib/config/env";
import type { Db } from "../lib/db/prisma";
import { syncTemporalSchedule } from "../lib/schedules/temporal";

export async function resyncSchedules(connection: NativeConnection, config: AppConfig, db: Db): Promise<void> {
  const { taskQueue, namespace } = config.temporal;
  const client = new Client({ connection, namespace });
  const rows = await db.schedule.findMany().catch((error: unknown) => {
    console.error(`worker: schedules not read, so not re-synced: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  });
  let failed = 0;
  for (const row of rows) {
    try {
      await syncTemporalSchedule(client, taskQueue, row.id, row);
      if (row.syncError) await db.schedule.updateMany({ where: { id: row.id }, data: { syncError: null } });
    } catch (error) {
      failed++;
      console.error(`worker: schedule ${row.id} not brought in line with Temporal: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (rows.length) console.log(`worker: ${rows.length - failed} of ${rows.length} schedules in line with Temporal`);
}
