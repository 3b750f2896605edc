// One tick of the monitor evaluator, started by its Temporal Schedule
// (worker/monitor-schedule.ts): evaluate, then deliver what is owed. A webhook
// that fails stops this tick's deliveries (the rest would fail alike); the
// alerts are already recorded, and the next tick retries what is still owed.
import { proxyActivities } from "@temporalio/workflow";
import type { Activities } from "../activities";

const { evaluateMonitors } = proxyActivities<Activities>({
  startToCloseTimeout: "2 minutes",
  retry: { maximumAttempts: 3, initialInterval: "1 second" },
});

const { deliverAlertNotification } = proxyActivities<Activities>({
  // The post itself gives up after 10 s.
  startToCloseTimeout: "30 seconds",
  retry: { maximumAttempts: 3, initialInterval: "2 seconds", backoffCoefficient: 2 },
});

export interface MonitorsTickSummary {
  evaluated: number;
  fired: number;
  resolved: number;
  delivered: number;
  /** Deliveries left for the next tick after a failure. */
  deferred: number;
}

export async function monitorsTickWorkflow(): Promise<MonitorsTickSummary> {
  const tick = await evaluateMonitors();
  let delivered = 0;
  for (const [index, delivery] of tick.deliveries.entries()) {
    try {
      if ((await deliverAlertNotification(delivery)) === "sent") delivered++;
    } catch {
      return { evaluated: tick.evaluated, fired: tick.fired, resolved: tick.resolved, delivered, deferred: tick.deliveries.length - index };
    }
  }
  return { evaluated: tick.evaluated, fired: tick.fired, resolved: tick.resolved, delivered, deferred: 0 };
}
