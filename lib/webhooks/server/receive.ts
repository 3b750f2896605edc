import "server-only";
// One delivery to POST /api/hooks/<endpointId>, from the request to the answer
// (docs/webhooks.md). No session: the signature is the caller's credential.
// Checked in this order, each refusal recorded with why: the endpoint exists
// and is enabled (404), its rate (429: counted before anything costly), the
// body's size (413), the signature and its timestamp (401), the
// Idempotency-Key (400), the body against the endpoint's mapping (400 not
// JSON, 422 naming the field). Then the delivery claims its key: the row's
// unique (endpoint, key) index lets exactly one of any number of concurrent
// repeats through, on SQLite and PostgreSQL alike; a repeat answers 200 with
// the first delivery's run. The run starts through the same launch a person's
// start uses (lib/runs/launch-saved.ts), as the endpoint's owner.
import { createHash } from "node:crypto";
import { RateLimiterPrisma, RateLimiterRes } from "rate-limiter-flexible";
import type { Db } from "../../db/prisma";
import type { Engine } from "../../engine/client";
import type { KeyRingConfig } from "../../crypto/keys";
import { can } from "../../access/roles";
import { retryReason, sleep } from "../../db/contention";
import { AppError, zodIssues, type FieldIssue } from "../../errors";
import { readBodyText } from "../../http/server/request-guard";
import { launchRunSchema } from "../../runs/schemas";
import { launchSavedRun } from "../../runs/launch-saved";
import { REPORT_INPUT } from "../../union-issues";
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifySignature } from "../signature";
import { WEBHOOK_LIMITS, deliveryBodySchema, launchOf, webhookIdSchema, type DeliveryOutcome } from "../schemas";
import { openSecret, storedMapping } from "./store";

export interface ReceiveDeps {
  db: Db;
  engine: Pick<Engine, "startRun">;
  config: KeyRingConfig;
  nowSeconds?: () => number;
}

/** What the route answers: a status, a JSON body and any headers (Retry-After). */
export interface DeliveryAnswer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

const deliveryId = () => `dlv_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
const digestOf = (body: string) => createHash("sha256").update(body, "utf8").digest("hex");

/** The run id of a delivery: the same endpoint and key always name the same run, so even a lost claim cannot start a second one. */
export function deliveryRunId(entryAgent: string, endpointId: string, key: string): string {
  return `${entryAgent}-hook-${createHash("sha256").update(`${endpointId}\n${key}`).digest("hex").slice(0, 32)}`;
}

const limiters = new WeakMap<Db, Map<number, RateLimiterPrisma>>();

function limiter(db: Db, perMinute: number): RateLimiterPrisma {
  let byRate = limiters.get(db);
  if (!byRate) limiters.set(db, (byRate = new Map()));
  let found = byRate.get(perMinute);
  if (!found) byRate.set(perMinute, (found = new RateLimiterPrisma({ storeClient: db, tableName: "rateLimit", keyPrefix: `webhook:${perMinute}`, points: perMinute, duration: 60 })));
  return found;
}

const CODES: Record<number, string> = { 400: "bad_request", 401: "unauthenticated", 402: "spend_limit_reached", 403: "forbidden", 404: "not_found", 409: "conflict", 413: "payload_too_large", 422: "validation_failed", 429: "rate_limited", 500: "internal", 503: "unavailable" };

function refusal(status: number, message: string, extra: { issues?: FieldIssue[]; deliveryId?: string } = {}): DeliveryAnswer {
  return { status, body: { error: { code: CODES[status] ?? "bad_request", message, ...(extra.issues?.length ? { issues: extra.issues } : {}) }, ...(extra.deliveryId ? { deliveryId: extra.deliveryId } : {}) } };
}

interface DeliveryRecord {
  endpointId: string;
  outcome: DeliveryOutcome;
  httpStatus: number;
  reason?: string | null;
  keySent?: string | null;
  runId?: string | null;
  body?: string | null;
  bodyBytes?: number;
}

async function record(db: Db, row: DeliveryRecord): Promise<string> {
  const id = deliveryId();
  await db.webhookDelivery.create({
    data: {
      id,
      endpointId: row.endpointId,
      outcome: row.outcome,
      httpStatus: row.httpStatus,
      reason: row.reason?.slice(0, 500) ?? null,
      keySent: row.keySent ?? null,
      runId: row.runId ?? null,
      bodyDigest: row.body != null ? digestOf(row.body) : null,
      bodyBytes: row.bodyBytes ?? (row.body != null ? Buffer.byteLength(row.body) : 0),
    },
  });
  return id;
}

/** A refusal recorded and answered (the answer names the delivery, so a sender can quote it). */
async function refuse(db: Db, endpointId: string, status: number, reason: string, extra: { keySent?: string | null; body?: string | null; bodyBytes?: number; issues?: FieldIssue[]; headers?: Record<string, string> } = {}): Promise<DeliveryAnswer> {
  const id = await record(db, { endpointId, outcome: "refused", httpStatus: status, reason, keySent: extra.keySent, body: extra.body, bodyBytes: extra.bodyBytes });
  return { ...refusal(status, reason, { issues: extra.issues, deliveryId: id }), ...(extra.headers ? { headers: extra.headers } : {}) };
}

/** Why the owner may not start runs now, or the owner. */
async function ownerOf(db: Db, ownerId: string): Promise<{ problem: string } | { owner: { id: string; email: string } }> {
  const owner = await db.user.findUnique({ where: { id: ownerId }, select: { id: true, email: true, role: true, disabledAt: true } });
  if (!owner) return { problem: "the endpoint's owner no longer exists" };
  if (owner.disabledAt) return { problem: `the endpoint's owner ${owner.email} is disabled` };
  if (!can(owner.role, "runs:launch")) return { problem: `the endpoint's owner ${owner.email} is a ${owner.role} and may no longer start runs` };
  return { owner: { id: owner.id, email: owner.email } };
}

const issuesText = (issues: FieldIssue[]) => issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ");

/** A repeat of a claimed key: the first delivery's run, waited for a few seconds while the first is still starting it. */
async function duplicate(db: Db, endpointId: string, key: string, body: string): Promise<DeliveryAnswer> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = await db.webhookDelivery.findUnique({ where: { endpointId_idempotencyKey: { endpointId, idempotencyKey: key } } });
    if (first?.outcome === "started" && first.runId) {
      const id = await record(db, { endpointId, outcome: "duplicate", httpStatus: 200, reason: `a repeat of delivery ${first.id}`, keySent: key, runId: first.runId, body });
      return { status: 200, body: { outcome: "duplicate", runId: first.runId, deliveryId: id, firstDeliveryId: first.id } };
    }
    // The first delivery was refused (its claim released): this one may claim the key itself.
    if (!first) return { status: -1, body: {} };
    await sleep(200);
  }
  return refuse(db, endpointId, 409, "a delivery with this Idempotency-Key is still starting its run; send it again in a few seconds", { keySent: key, body });
}

/** Answers one delivery; every outcome but an unknown endpoint leaves a delivery row. */
export async function receiveDelivery(deps: ReceiveDeps, endpointIdRaw: string, request: Request): Promise<DeliveryAnswer> {
  const { db } = deps;
  if (!webhookIdSchema.safeParse(endpointIdRaw).success) return refusal(404, "There is no such webhook endpoint");
  const endpoint = await db.webhookEndpoint.findUnique({ where: { id: endpointIdRaw }, omit: { secret: false } });
  if (!endpoint) return refusal(404, "There is no such webhook endpoint");
  const endpointId = endpoint.id;
  const keySent = request.headers.get("idempotency-key")?.trim().slice(0, WEBHOOK_LIMITS.maxIdempotencyKeyChars) || null;
  if (!endpoint.enabled) return refuse(db, endpointId, 404, "the endpoint is disabled", { keySent });

  try {
    await limiter(db, endpoint.rateLimitPerMinute).consume(endpointId, 1);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    const wait = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    return refuse(db, endpointId, 429, `more than ${endpoint.rateLimitPerMinute} deliveries in a minute; try again in ${wait} s`, { keySent, headers: { "Retry-After": String(wait) } });
  }

  let body: string;
  try {
    body = await readBodyText(request, WEBHOOK_LIMITS.maxBodyBytes);
  } catch (error) {
    if (error instanceof AppError && error.status === 413) {
      const declared = Number(request.headers.get("content-length") ?? 0);
      return refuse(db, endpointId, 413, `the body is larger than ${WEBHOOK_LIMITS.maxBodyBytes / 1024} KiB`, { keySent, bodyBytes: Number.isFinite(declared) ? declared : 0 });
    }
    if (error instanceof AppError) return refuse(db, endpointId, 400, "the body is not UTF-8 text", { keySent });
    throw error;
  }

  const secret = openSecret(deps.config, endpoint.secret);
  const nowSeconds = deps.nowSeconds?.() ?? Math.floor(Date.now() / 1000);
  const check = verifySignature({ secret, body, timestamp: request.headers.get(TIMESTAMP_HEADER), signature: request.headers.get(SIGNATURE_HEADER) }, { nowSeconds, toleranceSeconds: WEBHOOK_LIMITS.toleranceSeconds });
  if (!check.ok) return refuse(db, endpointId, 401, check.reason, { keySent, body });

  if (!keySent) return refuse(db, endpointId, 400, "send an Idempotency-Key header (one value per event: its repeats start no second run)", { body });

  let parsedJson: unknown;
  try {
    parsedJson = JSON.parse(body);
  } catch {
    return refuse(db, endpointId, 400, "the body is not valid JSON", { keySent, body });
  }
  const mapping = storedMapping(endpoint.mapping);
  const checked = deliveryBodySchema(mapping).safeParse(parsedJson, REPORT_INPUT);
  if (!checked.success) {
    const issues = zodIssues(checked.error.issues);
    return refuse(db, endpointId, 422, `the body does not fit the endpoint: ${issuesText(issues)}`, { keySent, body, issues });
  }
  const launch = launchRunSchema.safeParse({ graph: endpoint.graphName, ...(endpoint.version ? { version: endpoint.version } : {}), ...launchOf(mapping, checked.data as Record<string, unknown>) }, REPORT_INPUT);
  if (!launch.success) {
    const issues = zodIssues(launch.error.issues);
    return refuse(db, endpointId, 422, `the run's input is invalid: ${issuesText(issues)}`, { keySent, body, issues });
  }

  // The claim: one row per (endpoint, key); the loser of a race reads the winner's run.
  const claimId = deliveryId();
  for (;;) {
    try {
      await db.webhookDelivery.create({ data: { id: claimId, endpointId, idempotencyKey: keySent, keySent, outcome: "pending", httpStatus: 202, bodyDigest: digestOf(body), bodyBytes: Buffer.byteLength(body) } });
      break;
    } catch (error) {
      if (retryReason(error) !== "unique_violation") throw error;
      const answer = await duplicate(db, endpointId, keySent, body);
      if (answer.status !== -1) return answer;
    }
  }

  /** The claim becomes a refusal and lets go of its key, so the sender may retry once the cause is fixed. */
  const release = async (status: number, reason: string, issues?: FieldIssue[], answer = reason): Promise<DeliveryAnswer> => {
    await db.webhookDelivery.update({ where: { id: claimId }, data: { idempotencyKey: null, outcome: "refused", httpStatus: status, reason: reason.slice(0, 500) } });
    return refusal(status, answer, { issues, deliveryId: claimId });
  };
  const owner = await ownerOf(db, endpoint.ownerId);
  // The sender is another system: it hears that the owner may not start runs, not who the owner is or why
  // (the recorded delivery says it to the endpoint's managers).
  if ("problem" in owner) return release(403, owner.problem, undefined, "the endpoint's owner may no longer start runs; its managers see why among its deliveries");
  try {
    const { runId } = await launchSavedRun(deps, launch.data, owner.owner, { webhookId: endpointId, runIdFor: (entry) => deliveryRunId(entry, endpointId, keySent) });
    await db.webhookDelivery.update({ where: { id: claimId }, data: { outcome: "started", runId } });
    return { status: 202, body: { outcome: "started", runId, deliveryId: claimId } };
  } catch (error) {
    if (error instanceof AppError) return release(error.status >= 500 ? 503 : error.status, `the run could not start: ${error.userMessage}`, error.issues);
    console.error(`webhooks: delivery ${claimId} to ${endpointId} could not start its run`, error);
    return release(500, "the run could not start");
  }
}
