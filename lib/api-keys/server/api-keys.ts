import "server-only";
// One function per API key operation (issue 23 §1): input validated by the
// caller's schema, actor given, every change audited in the same transaction.
// The token and its hash, and the Bearer resolution, are lib/auth/server/api-keys.ts.
import { getDb } from "../../db/server/db";
import type { Db } from "../../db/prisma";
import { writeTransaction, type DbTransaction } from "../../db/transactions";
import { appendAuditInTransaction } from "../../audit/write";
import { can, isRole, roleWithin, type Role } from "../../access/roles";
import { newApiKeyToken } from "../../auth/server/api-keys";
import { AppError, ForbiddenError, ValidationError, zodIssues } from "../../errors";
import type { z } from "zod";
import { createApiKeySchema, type ApiKeySummary, type CreateApiKeyInput, type CreatedApiKey, type RevokeApiKeyInput } from "../schemas";

/** Who acts: a signed-in user (their current role). */
type Actor = { id: string; role: Role };

interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  kind: string;
  role: string;
  ownerId: string;
  createdById: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  owner: { id: string; email: string };
}

const SELECT = {
  id: true,
  name: true,
  prefix: true,
  kind: true,
  role: true,
  ownerId: true,
  createdById: true,
  createdAt: true,
  expiresAt: true,
  lastUsedAt: true,
  revokedAt: true,
  owner: { select: { id: true, email: true } },
} as const;

function summary(row: ApiKeyRow, now = new Date()): ApiKeySummary {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    kind: row.kind === "service" ? "service" : "personal",
    role: isRole(row.role) ? row.role : "viewer",
    owner: row.owner,
    createdById: row.createdById,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    status: row.revokedAt ? "revoked" : row.expiresAt && row.expiresAt <= now ? "expired" : "active",
  };
}

/** A key the actor may not see, said as if it did not exist. */
export class ApiKeyNotFound extends AppError {
  constructor(id: string) {
    super("not_found", 404, `There is no API key with id "${id}"`);
    this.name = "ApiKeyNotFound";
  }
}

/** Who the audit row names: a user (the web's actor), or nobody (the system) with the door in the details. */
interface AuditedBy {
  actorId: string | null;
  details?: Record<string, unknown>;
}

/** Inserts a key for `owner` (the rules already checked) and its api_key.created row, in one transaction. */
async function insertKey(db: Db, owner: { id: string }, input: z.output<typeof createApiKeySchema>, createdById: string | null, audited: AuditedBy, now: Date): Promise<CreatedApiKey> {
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * 86_400_000) : null;
  if (expiresAt && expiresAt <= now) throw new ValidationError([{ path: "expiresAt", message: "expiresAt must be in the future" }]);
  const { token, prefix, secretHash } = newApiKeyToken();
  const row = await writeTransaction(db, async (tx) => {
    const created = await tx.apiKey.create({
      data: { name: input.name, prefix, secretHash, ownerId: owner.id, kind: input.kind, role: input.role, expiresAt, createdById },
      select: SELECT,
    });
    await appendAuditInTransaction(tx, {
      actorId: audited.actorId,
      action: "api_key.created",
      target: created.id,
      details: { name: created.name, prefix, kind: input.kind, role: input.role, expiresAt: expiresAt?.toISOString() ?? null, ...audited.details },
    });
    return created;
  });
  return { key: summary(row, now), token };
}

/**
 * Creates a key owned by the actor: personal for anyone, service for admins
 * only; its role no higher than the actor's. The token is in the result and
 * nowhere else (the row keeps its prefix and keyed hash).
 */
export async function createApiKey(actor: Actor, raw: CreateApiKeyInput, db: Db = getDb(), now = new Date()): Promise<CreatedApiKey> {
  const input = createApiKeySchema.parse(raw);
  if (input.kind === "service" && !can(actor.role, "users:manage")) throw new ForbiddenError("Only admins create service keys");
  if (!roleWithin(input.role, actor.role)) throw new ForbiddenError(`A key's role cannot grant more than your own role (${actor.role}); "${input.role}" does`);
  return insertKey(db, actor, input, actor.id, { actorId: actor.id }, now);
}

/**
 * An operator on the server host (`npm run api-key -- create`) creates a key
 * for a user named by email, under the web's rules applied to that owner: a
 * service key only for an admin, a role no higher than the owner's, an enabled
 * account. The audit row has no actor (the audit page shows "system") and says
 * `via: "cli"`, which operator account ran it, and for whom.
 */
export async function createApiKeyAsOperator(operator: string, ownerEmail: string, raw: CreateApiKeyInput, db: Db = getDb(), now = new Date()): Promise<CreatedApiKey> {
  const parsed = createApiKeySchema.safeParse(raw);
  if (!parsed.success) throw new ValidationError(zodIssues(parsed.error.issues));
  const input = parsed.data;
  const owner = await db.user.findUnique({ where: { email: ownerEmail.trim().toLowerCase() }, select: { id: true, email: true, role: true, disabledAt: true } });
  if (!owner) throw new AppError("not_found", 404, `There is no user with email "${ownerEmail}"`);
  if (owner.disabledAt) throw new ForbiddenError(`${owner.email} is disabled: a key of theirs would be refused`);
  const ownerRole: Role = isRole(owner.role) ? owner.role : "viewer";
  if (input.kind === "service" && !can(ownerRole, "users:manage")) throw new ForbiddenError(`Service keys belong to admins; ${owner.email} is ${ownerRole}`);
  if (!roleWithin(input.role, ownerRole)) throw new ForbiddenError(`A key's role cannot grant more than its owner's role (${owner.email} is ${ownerRole}); "${input.role}" does`);
  return insertKey(db, owner, input, null, { actorId: null, details: { via: "cli", operator, owner: owner.email } }, now);
}

/** The actor's own keys, newest first; an admin sees every key. */
export async function listApiKeys(actor: Actor, db: Db = getDb()): Promise<ApiKeySummary[]> {
  const rows = await db.apiKey.findMany({ where: can(actor.role, "users:manage") ? {} : { ownerId: actor.id }, orderBy: [{ createdAt: "desc" }, { id: "asc" }], select: SELECT });
  const now = new Date();
  return rows.map((row) => summary(row, now));
}

/** Revokes `id` when `mayRevoke` allows it, writing api_key.revoked as `audited`; a revoked key is returned as it is. */
async function revoke(db: Db, id: string, mayRevoke: (key: { ownerId: string }) => boolean, audited: AuditedBy): Promise<ApiKeySummary> {
  return writeTransaction(db, async (tx) => {
    const found = await tx.apiKey.findUnique({ where: { id }, select: SELECT });
    if (!found || !mayRevoke(found)) throw new ApiKeyNotFound(id);
    if (found.revokedAt) return summary(found);
    const revoked = await tx.apiKey.update({ where: { id: found.id }, data: { revokedAt: new Date() }, select: SELECT });
    await appendAuditInTransaction(tx, {
      actorId: audited.actorId,
      action: "api_key.revoked",
      target: found.id,
      details: { name: found.name, prefix: found.prefix, kind: found.kind, ownerId: found.ownerId, ...audited.details },
    });
    return summary(revoked);
  });
}

/**
 * Revokes a key at once (its next request gets 401): the owner their own, an
 * admin any. Revoking a revoked key changes nothing and writes no second row.
 */
export async function revokeApiKey(actor: Actor, input: RevokeApiKeyInput, db: Db = getDb()): Promise<ApiKeySummary> {
  const admin = can(actor.role, "users:manage");
  return revoke(db, input.id, (key) => admin || key.ownerId === actor.id, { actorId: actor.id });
}

/** An operator revokes any key (`npm run api-key -- revoke`); audited as createApiKeyAsOperator is. */
export async function revokeApiKeyAsOperator(operator: string, input: RevokeApiKeyInput, db: Db = getDb()): Promise<ApiKeySummary> {
  return revoke(db, input.id, () => true, { actorId: null, details: { via: "cli", operator } });
}

/**
 * Revokes every active personal key of `ownerId`, inside the caller's
 * transaction: an admin's password reset (lib/users/server/users.ts) is
 * incident response, and whoever held the old password may have made keys with
 * it. One api_key.revoked row per key, naming the reset. Service keys are not
 * the person's alone (a deployment may rely on them): they stay, refused while
 * the owner must choose a new password (apiKeyStanding). Returns what it revoked.
 */
export async function revokePersonalKeysOnReset(tx: DbTransaction, ownerId: string, actorId: string | null, now = new Date()): Promise<{ id: string; name: string; prefix: string }[]> {
  const keys = await tx.apiKey.findMany({ where: { ownerId, kind: "personal", revokedAt: null }, orderBy: { createdAt: "asc" }, select: { id: true, name: true, prefix: true, kind: true } });
  if (keys.length === 0) return [];
  await tx.apiKey.updateMany({ where: { id: { in: keys.map((k) => k.id) }, revokedAt: null }, data: { revokedAt: now } });
  for (const key of keys) {
    await appendAuditInTransaction(tx, { actorId, action: "api_key.revoked", target: key.id, details: { name: key.name, prefix: key.prefix, kind: key.kind, ownerId, because: "password_reset" } });
  }
  return keys.map(({ id, name, prefix }) => ({ id, name, prefix }));
}

/** Every key, or one owner's (by email), newest first: what the operator's `list` shows. */
export async function listApiKeysAsOperator(filter: { ownerEmail?: string }, db: Db = getDb()): Promise<ApiKeySummary[]> {
  const where = filter.ownerEmail ? { owner: { email: filter.ownerEmail.trim().toLowerCase() } } : {};
  const rows = await db.apiKey.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "asc" }], select: SELECT });
  const now = new Date();
  return rows.map((row) => summary(row, now));
}
