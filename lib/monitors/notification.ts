// The webhook body of an alert event: the alert as the API shows it, plus a
// one-line `text` (a Slack incoming webhook shows it as it is), like the
// approval notifications the inbox sends. The text is Slack-escaped: a monitor's
// name and label are a builder's words, never markup (`<!channel>` stays text).
import { escapeSlackText } from "../text/slack";
import { describeCondition, formatSeriesValue } from "./episode";
import type { AlertEvent } from "./evaluate";
import { MONITOR_SERIES, type AlertView } from "./schemas";

export interface AlertNotification {
  event: AlertEvent;
  alert: AlertView;
  text: string;
}

export function alertNotification(event: AlertEvent, alert: AlertView): AlertNotification {
  const condition = describeCondition(alert.condition, MONITOR_SERIES[alert.condition.series].label);
  const text =
    event === "alert.fired"
      ? `Alert: ${alert.monitorName} is firing at ${formatSeriesValue(alert.condition.series, alert.valueAtFire)} (${condition})`
      : `Resolved: ${alert.monitorName} (${alert.resolvedReason === "recovered" ? `back to ${formatSeriesValue(alert.condition.series, alert.lastValue)}` : (alert.resolvedReason ?? "resolved").replaceAll("_", " ")}; ${condition})`;
  return { event, alert, text: escapeSlackText(text) };
}
