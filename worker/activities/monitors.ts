// The monitor evaluator's activities, run by monitorsTickWorkflow on each tick
// of its Temporal Schedule (worker/monitor-schedule.ts): evaluate every enabled
// monitor (fire / keep / resolve, audited, lib/monitors/evaluate.ts), then post
// each owed alert event to the webhook, signed like the approval notifications.
import type { Db } from "../../lib/db/prisma";
import { evaluateMonitors, type AlertDelivery, type SeriesReader, type TickResult } from "../../lib/monitors/evaluate";
import { markDelivered, owedNotification } from "../../lib/monitors/deliveries";
import { monitorSeriesReader } from "../../lib/monitors/series";
import { seriesValue } from "../../lib/metrics/server/series-value";
import { highestSpendShare } from "../../lib/spend-limits/server/share";
import { createSignedWebhookPost, type WebhookConfig } from "./signed-webhook";
import { deriveQueued } from "../../lib/run-ledger/deriver";

export interface MonitorActivityDeps {
  db: Db;
  webhook: WebhookConfig | null;
  /** Reads a monitor's series; default: lib/monitors/series.ts over lib/metrics' seriesValue and the spend limits' share. */
  readMonitorSeries?: SeriesReader;
  /** Reminds and escalates pending approvals on each tick (worker/activities/approval-reminders.ts); absent: no approval channel. */
  sweepApprovalReminders?: () => Promise<unknown>;
}

const defaultReader = monitorSeriesReader(seriesValue, undefined, highestSpendShare);

export function createMonitorActivities({ db, webhook, readMonitorSeries = defaultReader, sweepApprovalReminders }: MonitorActivityDeps) {
  const post = webhook?.secret ? createSignedWebhookPost(webhook) : null;
  return {
    /** One tick's evaluation; answers the counts and the webhook deliveries still owed. */
    async evaluateMonitors(): Promise<TickResult> {
      // The rollups a monitor reads are derived off the runs' path: take in what is queued first
      // (bounded), so a tick judges what the ledger holds, not what the deriver reached.
      await deriveQueued(db, { maxPasses: 20 }).catch((error: unknown) => console.warn("worker: monitors evaluated without the latest derived rows:", error instanceof Error ? error.message : error));
      const result = await evaluateMonitors(db, { readSeries: readMonitorSeries, webhookConfigured: post !== null });
      for (const failure of result.failed) console.error(`worker: monitor ${failure.monitorId} could not read its series: ${failure.message}`);
      // The same periodic tick reminds and escalates pending approvals; a failure there never fails the monitors.
      await sweepApprovalReminders?.().catch((error: unknown) => console.error("worker: the approval reminder sweep failed:", error instanceof Error ? error.message : error));
      return result;
    },

    /** Posts one alert event; a delivery already accepted is not sent again. */
    async deliverAlertNotification(delivery: AlertDelivery): Promise<"sent" | "not_owed"> {
      if (!post) return "not_owed";
      const notification = await owedNotification(db, delivery);
      if (!notification) return "not_owed";
      // Stable across retries and ticks, so receivers can drop duplicates.
      await post({ event: delivery.event, deliveryId: `${delivery.event}:${delivery.alertId}`, body: JSON.stringify(notification) });
      await markDelivered(db, delivery, new Date());
      return "sent";
    },
  };
}
