import "server-only";
// Webhook endpoints, one function per management operation, called by the
// routes and server actions alike through operations.ts. Each change writes
// the row and its audit row in one transaction. The signing secret is answered
// once, by create and rotate; it is stored sealed (purpose webhook-secrets) and
// omitted from every query but the receiver's (lib/db/db-type.ts omitSecrets).
import type { Db } from "../../db/prisma";
import { keyRing, type KeyRingConfig } from "../../crypto/keys";
import { sealWithRing, unsealWithRing } from "../../crypto/seal";
import { writeTransaction } from "../../db/transactions";
import { appendAuditInTransaction } from "../../audit/write";
import { AppError, ConflictError, ValidationError } from "../../errors";
import { newWebhookSecret } from "../signature";
import {
  WEBHOOK_LIMITS,
  hookPath,
  webhookCreateSchema,
  webhookMappingSchema,
  webhookPatchSchema,
  type DeliveryOutcome,
  type WebhookCreateInput,
  type WebhookDeliveryView,
  type WebhookMapping,
  type WebhookPatch,
  type WebhookView,
  type WebhookWithSecret,
} from "../schemas";

export interface WebhookDeps {
  db: Db;
  config: KeyRingConfig;
}

interface Actor {
  id: string;
}

type EndpointRow = NonNullable<Awaited<ReturnType<Db["webhookEndpoint"]["findUnique"]>>>;

export class WebhookNotFound extends AppError {
  constructor(id: string) {
    super("not_found", 404, `There is no webhook endpoint ${id}`);
    this.name = "WebhookNotFound";
  }
}

const endpointId = () => `whk_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;

export const sealSecret = (config: KeyRingConfig, secret: string) => sealWithRing(keyRing(config, "webhook-secrets"), "webhook-secrets", secret);
export const openSecret = (config: KeyRingConfig, sealed: string) => unsealWithRing(keyRing(config, "webhook-secrets"), "webhook-secrets", sealed);

/** The stored mapping; a row written by an older release that no longer parses reads as the plain task mapping. */
export function storedMapping(text: string): WebhookMapping {
  try {
    const parsed = webhookMappingSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : { kind: "task" };
  } catch {
    return { kind: "task" };
  }
}

function toView(row: EndpointRow, ownerEmail: string | null): WebhookView {
  return {
    id: row.id,
    name: row.name,
    graph: row.graphName,
    version: row.version,
    mapping: storedMapping(row.mapping),
    enabled: row.enabled,
    rateLimitPerMinute: row.rateLimitPerMinute,
    path: hookPath(row.id),
    owner: { id: row.ownerId, email: ownerEmail },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    rotatedAt: row.rotatedAt?.toISOString() ?? null,
  };
}

async function views(db: Db, rows: EndpointRow[]): Promise<WebhookView[]> {
  const owners = await db.user.findMany({ where: { id: { in: [...new Set(rows.map((row) => row.ownerId))] } }, select: { id: true, email: true } });
  const emails = new Map(owners.map((owner) => [owner.id, owner.email]));
  return rows.map((row) => toView(row, emails.get(row.ownerId) ?? null));
}

/** Every endpoint (of one graph when named), by name (everyone signed in). */
export async function listWebhooks(deps: WebhookDeps, graph?: string): Promise<WebhookView[]> {
  return views(deps.db, await deps.db.webhookEndpoint.findMany({ where: graph ? { graphName: graph } : {}, orderBy: [{ name: "asc" }, { createdAt: "asc" }], take: WEBHOOK_LIMITS.perWorkspace }));
}

export async function getWebhook(deps: WebhookDeps, id: string): Promise<WebhookView> {
  const row = await deps.db.webhookEndpoint.findUnique({ where: { id } });
  if (!row) throw new WebhookNotFound(id);
  return (await views(deps.db, [row]))[0] as WebhookView;
}

/** 422 naming `graph` or `version` when the endpoint would start nothing. */
async function requireGraph(db: Db, graph: string, version: number | null, prefix = ""): Promise<void> {
  const found = await db.agentVersion.findFirst({ where: { agent: { name: graph, archivedAt: null }, ...(version === null ? { draft: false } : { version }) }, select: { id: true } });
  if (found) return;
  if (version === null) throw new ValidationError([{ path: `${prefix}graph`, message: `there is no saved agent graph named "${graph}" with a version to run` }]);
  throw new ValidationError([{ path: `${prefix}version`, message: `the saved agent "${graph}" has no version ${version}` }]);
}

const auditDetails = (row: { name: string; graphName: string; version: number | null; enabled: boolean; rateLimitPerMinute: number; mapping: string }) => ({
  name: row.name,
  graph: row.graphName,
  version: row.version,
  enabled: row.enabled,
  rateLimitPerMinute: row.rateLimitPerMinute,
  mapping: storedMapping(row.mapping).kind,
});

/** Creates an endpoint (builders and admins), owned by its creator; answers its secret this once. */
export async function createWebhook(deps: WebhookDeps, raw: WebhookCreateInput, actor: Actor): Promise<WebhookWithSecret> {
  const input = webhookCreateSchema.parse(raw);
  const version = input.version ?? null;
  await requireGraph(deps.db, input.graph, version);
  const secret = newWebhookSecret();
  const row = await writeTransaction(deps.db, async (tx) => {
    const all = await tx.webhookEndpoint.count();
    if (all >= WEBHOOK_LIMITS.perWorkspace) throw new ConflictError(`The workspace already has ${all} webhook endpoints, the most it may keep (${WEBHOOK_LIMITS.perWorkspace}); delete one no longer needed first`);
    const data = { id: endpointId(), name: input.name, graphName: input.graph, version, mapping: JSON.stringify(input.mapping), enabled: input.enabled, rateLimitPerMinute: input.rateLimitPerMinute, secret: sealSecret(deps.config, secret), ownerId: actor.id };
    const created = await tx.webhookEndpoint.create({ data });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "webhook.created", target: created.id, details: auditDetails(created) });
    return created;
  });
  return { webhook: await getWebhook(deps, row.id), secret };
}

/**
 * Changes an endpoint (builders and admins). Whoever changes it becomes its owner: the runs its
 * deliveries start from now on are theirs, so nobody makes runs start under another person's name.
 */
export async function updateWebhook(deps: WebhookDeps, id: string, raw: WebhookPatch, actor: Actor): Promise<WebhookView> {
  const patch = webhookPatchSchema.parse(raw);
  const current = await deps.db.webhookEndpoint.findUnique({ where: { id } });
  if (!current) throw new WebhookNotFound(id);
  if (patch.version !== undefined) await requireGraph(deps.db, current.graphName, patch.version, "patch.");
  await writeTransaction(deps.db, async (tx) => {
    const data = {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.version !== undefined ? { version: patch.version } : {}),
      ...(patch.mapping !== undefined ? { mapping: JSON.stringify(patch.mapping) } : {}),
      ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
      ...(patch.rateLimitPerMinute !== undefined ? { rateLimitPerMinute: patch.rateLimitPerMinute } : {}),
      ownerId: actor.id,
    };
    const { count } = await tx.webhookEndpoint.updateMany({ where: { id }, data });
    if (!count) throw new WebhookNotFound(id);
    const updated = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id } });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "webhook.updated", target: id, details: { ...auditDetails(updated), changed: Object.keys(patch).sort(), previousOwnerId: current.ownerId } });
  });
  return getWebhook(deps, id);
}

/** A new secret (builders and admins), answered this once; the old one verifies nothing from now on. The rotator becomes the owner. */
export async function rotateWebhookSecret(deps: WebhookDeps, id: string, actor: Actor): Promise<WebhookWithSecret> {
  const secret = newWebhookSecret();
  await writeTransaction(deps.db, async (tx) => {
    const current = await tx.webhookEndpoint.findUnique({ where: { id } });
    if (!current) throw new WebhookNotFound(id);
    await tx.webhookEndpoint.update({ where: { id }, data: { secret: sealSecret(deps.config, secret), rotatedAt: new Date(), ownerId: actor.id } });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "webhook.secret_rotated", target: id, details: { name: current.name, previousOwnerId: current.ownerId } });
  });
  return { webhook: await getWebhook(deps, id), secret };
}

/** Deletes an endpoint and its deliveries (builders and admins); the runs it started stay. */
export async function deleteWebhook(deps: WebhookDeps, id: string, actor: Actor): Promise<{ deleted: string }> {
  await writeTransaction(deps.db, async (tx) => {
    const current = await tx.webhookEndpoint.findUnique({ where: { id } });
    if (!current) throw new WebhookNotFound(id);
    await tx.webhookEndpoint.delete({ where: { id } });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "webhook.deleted", target: id, details: auditDetails(current) });
  });
  return { deleted: id };
}

/** The endpoint's newest deliveries, newest first (everyone signed in). */
export async function listDeliveries(deps: WebhookDeps, id: string): Promise<WebhookDeliveryView[]> {
  if (!(await deps.db.webhookEndpoint.findUnique({ where: { id }, select: { id: true } }))) throw new WebhookNotFound(id);
  const rows = await deps.db.webhookDelivery.findMany({ where: { endpointId: id }, orderBy: { receivedAt: "desc" }, take: WEBHOOK_LIMITS.deliveriesListed });
  return rows.map((row) => ({
    id: row.id,
    receivedAt: row.receivedAt.toISOString(),
    idempotencyKey: row.keySent,
    outcome: row.outcome as DeliveryOutcome,
    reason: row.reason,
    httpStatus: row.httpStatus,
    runId: row.runId,
    bodyDigest: row.bodyDigest,
    bodyBytes: row.bodyBytes,
  }));
}
