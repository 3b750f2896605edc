// An alert's webhook deliveries: what is owed, and the record that it was
// accepted. The alert row is written before any delivery is tried, so a webhook
// that is down never loses an alert; each tick retries what is still owed
// (lib/monitors/evaluate.ts pendingDeliveries) until the receiver accepts it.
import type { Db } from "../db/prisma";
import type { AlertDelivery } from "./evaluate";
import { alertNotification, type AlertNotification } from "./notification";
import { toAlertView } from "./rows";

/** The body to send, or null when the event was delivered already (a retried tick) or the alert is gone. */
export async function owedNotification(db: Db, delivery: AlertDelivery): Promise<AlertNotification | null> {
  const row = await db.monitorAlert.findUnique({ where: { id: delivery.alertId } });
  if (!row) return null;
  const done = delivery.event === "alert.fired" ? row.firedNotifiedAt !== null : row.state !== "resolved" || row.resolvedNotifiedAt !== null;
  if (done) return null;
  await db.monitorAlert.update({ where: { id: row.id }, data: { notifyAttempts: { increment: 1 } } });
  return alertNotification(delivery.event, toAlertView(row));
}

/** Records that the receiver accepted the event (the first acceptance stands). */
export async function markDelivered(db: Db, delivery: AlertDelivery, at: Date): Promise<void> {
  const column = delivery.event === "alert.fired" ? "firedNotifiedAt" : "resolvedNotifiedAt";
  await db.monitorAlert.updateMany({ where: { id: delivery.alertId, [column]: null }, data: { [column]: at } });
}
