// A monitor's state and an alert's webhook deliveries in words. "ok" is said
// only once an evaluation found the series within its threshold: a monitor no
// tick has read yet is "not evaluated yet", never "ok". And "not sent" is said
// only where a webhook is configured: without one nothing was owed.
import { Badge } from "@/components/ui/badge";
import type { AlertView, MonitorView } from "@/lib/monitors/schemas";

/** The state badge of a monitor. */
export function MonitorState({ monitor }: { monitor: Pick<MonitorView, "enabled" | "firing" | "lastEvaluatedAt"> }) {
  if (!monitor.enabled) return <Badge>disabled</Badge>;
  if (monitor.firing) return <Badge tone="danger">firing</Badge>;
  if (!monitor.lastEvaluatedAt) return <Badge tone="info">not evaluated yet</Badge>;
  return <Badge tone="success">ok</Badge>;
}

/** What became of an alert's webhook deliveries. */
export function webhookText(alert: Pick<AlertView, "state" | "notified">, webhookConfigured: boolean): string {
  if (alert.notified.fired) return alert.state === "resolved" && !alert.notified.resolved ? "fired sent, resolved owed" : "sent";
  return webhookConfigured ? "not sent yet" : "no webhook configured";
}
