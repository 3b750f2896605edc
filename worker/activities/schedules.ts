// The activities of a schedule's firing (worker/workflows/scheduled-run.ts):
// start the run as the schedule's owner (lib/schedules/fire.ts), wait for it
// to end while heartbeating (a cancelled firing, e.g. by cancel_other, cancels
// its run), record the outcome, and when the schedule paused itself bring its
// Temporal Schedule in line and post the alert through the monitors' signed
// webhook. Engines are built on the activity's own Temporal client, as the
// experiment activities do, so runs start through the engine's one start path.
import { CancelledFailure, Context } from "@temporalio/activity";
import type { Db } from "../../lib/db/prisma";
import { createEngine, type Engine } from "../../lib/engine/client";
import { readRunRow } from "../../lib/run-ledger/read";
import { fireSchedule, recordOutcome, type FireResult, type ScheduleAlert } from "../../lib/schedules/fire";
import { syncTemporalSchedule } from "../../lib/schedules/temporal";
import { createSignedWebhookPost, type WebhookConfig } from "./signed-webhook";

const FINAL = new Set(["completed", "failed", "cancelled"]);
const POLL_MS = 500;

export interface ScheduleActivityDeps {
  db: Db;
  decisionKey: Buffer | null;
  webhook: WebhookConfig | null;
}

export type FiringEnd = "completed" | "failed" | "cancelled";

export function createScheduleActivities({ db, decisionKey, webhook }: ScheduleActivityDeps) {
  const post = webhook?.secret ? createSignedWebhookPost(webhook) : null;
  const engines = new Map<string, Engine>();
  const engine = (): Engine => {
    const { client, info } = Context.current();
    let found = engines.get(info.taskQueue);
    if (!found) {
      found = createEngine({ temporal: client, db, taskQueue: info.taskQueue, decisionKey });
      engines.set(info.taskQueue, found);
    }
    return found;
  };

  /** Makes the Temporal Schedule match the row (a schedule that paused itself; a row deleted while its schedule still fired). */
  async function syncFromWorker(scheduleId: string): Promise<void> {
    const { client, info } = Context.current();
    const row = await db.schedule.findUnique({ where: { id: scheduleId } });
    await syncTemporalSchedule(client, info.taskQueue, scheduleId, row);
  }

  async function deliver(alert: ScheduleAlert, runId: string | null): Promise<void> {
    if (!post) return;
    // Stable across retries, so the receiver can drop a duplicate.
    await post({ event: alert.event, deliveryId: `${alert.event}:${alert.schedule.id}:${runId ?? "refused"}`, body: JSON.stringify(alert) });
  }

  return {
    /** Starts the firing's run, or records why it starts none (a deleted schedule's Temporal Schedule is removed). */
    async fireScheduledRun({ scheduleId, firingId }: { scheduleId: string; firingId: string }): Promise<Exclude<FireResult, { kind: "refused" }> | { kind: "refused"; reason: string }> {
      const result = await fireSchedule({ db, engine: engine() }, { scheduleId, firingId });
      if (result.kind === "skipped" && result.reason === "deleted") await syncFromWorker(scheduleId).catch(() => undefined);
      if (result.kind !== "refused") return result;
      if (result.record.pausedNow) {
        await syncFromWorker(scheduleId);
        if (result.record.alert) await deliver(result.record.alert, null).catch((failure: unknown) => console.error(`worker: the alert of schedule ${scheduleId} was not delivered: ${String(failure)}`));
      }
      return { kind: "refused", reason: result.reason };
    },

    /** Resolves with the run's final status; heartbeats meanwhile, and a cancelled firing cancels its run. */
    async awaitScheduledRun({ runId }: { runId: string }): Promise<FiringEnd> {
      const context = Context.current();
      for (;;) {
        const run = await readRunRow(db, runId);
        if (run && FINAL.has(run.status)) return run.status as FiringEnd;
        context.heartbeat({ runId });
        try {
          await context.sleep(POLL_MS);
        } catch (error) {
          // Only the firing's cancel stops the run; a heartbeat timeout or a worker shutdown retries elsewhere.
          if (error instanceof CancelledFailure && context.cancellationDetails?.cancelRequested && !context.cancellationDetails.timedOut) await engine().cancelRun(runId).catch(() => undefined);
          throw error;
        }
      }
    },

    /** Records the run's end; at the failure limit the schedule pauses, Temporal follows and the alert is posted. */
    async recordScheduledOutcome({ scheduleId, runId, outcome }: { scheduleId: string; runId: string; outcome: FiringEnd }): Promise<{ pausedNow: boolean }> {
      const run = await readRunRow(db, runId);
      const error = outcome === "failed" ? (run?.errorMessage ?? run?.errorReason ?? "the run failed") : undefined;
      const recorded = await recordOutcome(db, { scheduleId, runId, outcome, ...(error ? { error } : {}) });
      if (recorded.pausedNow) {
        await syncFromWorker(scheduleId);
        if (recorded.alert) await deliver(recorded.alert, runId).catch((failure: unknown) => console.error(`worker: the alert of schedule ${scheduleId} was not delivered: ${failure instanceof Error ? failure.message : String(failure)}`));
      }
      return { pausedNow: recorded.pausedNow };
    },
  };
}

export type ScheduleActivities = ReturnType<typeof createScheduleActivities>;
