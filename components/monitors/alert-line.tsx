import Link from "@/components/ui/link";
import { COMPARATOR_SYMBOLS, MONITOR_SERIES, type AlertView } from "@/lib/monitors/schemas";
import { formatSeriesValue } from "@/lib/monitors/episode";

/** "Runs failed [tool_error]: 6 > 5 over 15 min": what the alert watches, its value against the threshold. */
export function AlertValue({ alert }: { alert: AlertView }) {
  const c = alert.condition;
  const value = alert.state === "firing" ? (alert.lastValue ?? alert.valueAtFire) : alert.lastValue;
  return (
    <span>
      {MONITOR_SERIES[c.series].label}
      {c.stat ? ` (${c.stat})` : ""}
      {c.label ? ` [${c.label}]` : ""}: <strong className="font-semibold">{formatSeriesValue(c.series, value)}</strong> {COMPARATOR_SYMBOLS[c.comparator]} {formatSeriesValue(c.series, c.threshold)} over {c.windowMinutes} min
    </span>
  );
}

/** The two ways on from an alert: the runs behind it and its monitor. */
export function AlertLinks({ alert }: { alert: AlertView }) {
  return (
    <span className="space-x-3 whitespace-nowrap">
      <Link href={alert.runsHref} className="font-medium text-indigo-700 hover:underline">
        Runs
      </Link>
      {alert.monitorId ? (
        <Link href={`/monitors#${alert.monitorId}`} className="font-medium text-indigo-700 hover:underline">
          Monitor
        </Link>
      ) : null}
    </span>
  );
}
