// The one audit writer. Every mutation, whatever its door (server action, route,
// script, worker activity), appends its row here: typed action, the hash chain
// extended in the same transaction, idempotent when the caller names the row.
import type { Db } from "../db/prisma";
import { writeTransaction, type DbTransaction } from "../db/transactions";
import type { AuditEntry } from "./actions";
import { chainHash } from "./chain";
import { currentApiKey } from "./context";

const CHAIN_HEAD_ID = 1;

/**
 * Appends one row inside an open transaction. Claiming the next sequence number
 * is an UPDATE of the single head row, so concurrent writers queue on its row
 * lock (PostgreSQL) or on the write lock (SQLite) and the chain never forks.
 * With `entry.id` set, a row that already exists is left as it is.
 */
export async function appendAuditInTransaction(tx: DbTransaction, entry: AuditEntry): Promise<void> {
  if (entry.id && (await tx.auditEvent.findUnique({ where: { id: entry.id }, select: { id: true } }))) return;
  const head = await tx.auditChainHead.update({ where: { id: CHAIN_HEAD_ID }, data: { seq: { increment: 1 } } });
  // An action taken with an API key names the key beside its owner (the actor).
  const key = currentApiKey();
  const details = key && entry.actorId === key.actorId ? { ...entry.details, apiKeyId: key.apiKeyId } : (entry.details ?? {});
  const row = {
    id: entry.id ?? crypto.randomUUID(),
    actorId: entry.actorId,
    action: entry.action,
    target: entry.target ?? null,
    details: JSON.stringify(details),
    // Millisecond precision on both providers, so the hash recomputes from what was stored.
    createdAt: new Date((entry.at ?? new Date()).getTime()),
  };
  const hash = chainHash(head.hash, { ...row, seq: head.seq });
  await tx.auditChainHead.update({ where: { id: CHAIN_HEAD_ID }, data: { hash } });
  await tx.auditEvent.create({ data: { ...row, seq: head.seq, prevHash: head.hash, hash } });
}

/**
 * Appends one row in its own transaction (read committed on PostgreSQL: writers
 * wait for the head row instead of failing on it; a retried duplicate id is a no-op).
 */
export async function appendAudit(db: Db, entry: AuditEntry): Promise<void> {
  await writeTransaction(db, (tx) => appendAuditInTransaction(tx, entry), { isolation: "read-committed", retryOnUniqueViolation: true });
}
