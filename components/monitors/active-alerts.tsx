"use client";
// Firing alerts at the top of the dashboard: each monitor's name, its value
// against the threshold, since when, and links to the runs behind it and to
// the monitor. Nothing is shown while no monitor fires.
import { AlertLinks, AlertValue } from "./alert-line";
import { useFiringAlerts } from "./use-alerts";
import { DateTime } from "@/components/ui/date-time";
import type { AlertView } from "@/lib/monitors/schemas";

/** `initial`: the firing alerts the server read for the first HTML, so the banner is there from the first paint. */
export function ActiveAlerts({ initial }: { initial?: { alerts: AlertView[]; readAt: number } }) {
  const { data: alerts } = useFiringAlerts(initial);
  if (!alerts?.length) return null;
  return (
    <section aria-label="Firing alerts" className="mb-6 rounded-lg border border-red-200 bg-red-50 px-4 py-3" data-testid="active-alerts">
      <h2 className="text-sm font-semibold text-red-800">
        {alerts.length === 1 ? "1 alert is firing" : `${alerts.length} alerts are firing`}
      </h2>
      <ul className="mt-2 space-y-1.5 text-sm text-red-900">
        {alerts.map((alert) => (
          <li key={alert.id} className="flex flex-wrap items-baseline justify-between gap-x-4" data-testid={`active-alert-${alert.id}`}>
            <span>
              <span className="font-semibold">{alert.monitorName}</span> — <AlertValue alert={alert} />
              <span className="text-red-700">
                {" "}
                · since <DateTime value={alert.firedAt} />
              </span>
            </span>
            <AlertLinks alert={alert} />
          </li>
        ))}
      </ul>
    </section>
  );
}
