import "server-only";
import { getDb } from "../../db/server/db";

/** Appends one audit event (who did what to which target). */
export async function recordAudit(event: { actorId: string | null; action: string; target?: string; details?: Record<string, unknown> }): Promise<void> {
  await getDb().auditEvent.create({
    data: { actorId: event.actorId, action: event.action, target: event.target, details: JSON.stringify(event.details ?? {}) },
  });
}
