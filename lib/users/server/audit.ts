import "server-only";
import { getDb } from "../../db/server/db";
import { appendAudit } from "../../audit/write";
import type { AuditEntry } from "../../audit/actions";

/** Appends one audit row (who did what to which target) to the hash-chained audit log. */
export async function recordAudit(entry: AuditEntry): Promise<void> {
  await appendAudit(getDb(), entry);
}
