import "server-only";
// API keys (issue 23 §1): the token, its keyed hash, and the resolution of
// `Authorization: Bearer zap_…` to the key's owner, used by every API route
// (lib/http/server/api-route.ts). Creating, listing and revoking keys are
// operations of lib/api-keys.
//
// A token is `zap_` and 40 random bytes in base64url (54 characters). Its
// first 16 characters are the key's `prefix`: shown in lists, unique, the
// indexed lookup. The row stores the HMAC-SHA256 of the whole token under the
// server's "api-keys" key (lib/crypto/keys.ts, from ZAP_ENCRYPTION_KEY else
// AUTH_SECRET), so a copy of the database yields no usable key; verifying is
// one row read and a constant-time compare.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { RateLimiterPrisma, RateLimiterRes } from "rate-limiter-flexible";
import type { Db } from "../../db/prisma";
import { getDb } from "../../db/server/db";
import { getConfig } from "../../config/server/config";
import { configuredKey } from "../../crypto/keys";
import { AppError, RateLimitedError } from "../../errors";
import { capRole, isRole, ROLES } from "../../access/roles";
import type { SessionUser } from "./session";

export const API_KEY_TOKEN_PREFIX = "zap_";
const SECRET_BYTES = 40;
/** `zap_` and the first 12 characters of the random part. */
export const API_KEY_PREFIX_LENGTH = 16;
const TOKEN_PATTERN = /^zap_[A-Za-z0-9_-]{43,200}$/;

export const API_KEY_LIMITS = {
  /** Requests per key per window; more → 429 with Retry-After. */
  requests: 600,
  windowSeconds: 60,
  /** lastUsedAt is written at most this often per key. */
  lastUsedResolutionMs: 60_000,
} as const;

/** A new token and what the row stores of it (the token itself is shown once and never stored). */
export function newApiKeyToken(): { token: string; prefix: string; secretHash: string } {
  const token = `${API_KEY_TOKEN_PREFIX}${randomBytes(SECRET_BYTES).toString("base64url")}`;
  return { token, prefix: token.slice(0, API_KEY_PREFIX_LENGTH), secretHash: hashApiKeyToken(token) };
}

/** Hex HMAC-SHA256 of a token under the server's "api-keys" key. */
export function hashApiKeyToken(token: string): string {
  return createHmac("sha256", configuredKey(getConfig(), "api-keys")).update(token, "utf8").digest("hex");
}

/** A refused key: 401 with a one-line reason. */
export class ApiKeyRefused extends AppError {
  constructor(reason: string) {
    super("unauthenticated", 401, `API key refused: ${reason}`);
    this.name = "ApiKeyRefused";
  }
}

/** The caller a key resolves to: its owner, with the key's role (never above the owner's), and the key's id. */
export interface ApiKeyUser extends SessionUser {
  apiKeyId: string;
}

/**
 * The API key a request sends (`Authorization: Bearer zap_…`), or null when it
 * sends none. Any other Authorization (Basic, a proxy's own bearer token) is
 * not ours: the request is treated as one without a key (its cookie session).
 */
export function bearerToken(headers: Headers): string | null {
  const match = /^Bearer[ \t]+(zap_.*)$/i.exec(headers.get("authorization") ?? "");
  return match ? match[1]!.trim() : null;
}

const limiters = new WeakMap<Db, RateLimiterPrisma>();

function limiter(db: Db): RateLimiterPrisma {
  let found = limiters.get(db);
  if (!found) {
    found = new RateLimiterPrisma({ storeClient: db, tableName: "rateLimit", keyPrefix: "apikey", points: API_KEY_LIMITS.requests, duration: API_KEY_LIMITS.windowSeconds });
    limiters.set(db, found);
  }
  return found;
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/**
 * Resolves a Bearer token to the key's owner, or throws ApiKeyRefused (401, one
 * line saying why) or RateLimitedError (429, per key). The role is the key's,
 * lowered to the owner's current one; a disabled owner (or a demo account in
 * production mode), a revoked or expired key refuse. Stamps lastUsedAt at most
 * once a minute.
 */
export async function authenticateApiKey(token: string, db: Db = getDb(), now = new Date()): Promise<ApiKeyUser> {
  if (!TOKEN_PATTERN.test(token)) throw new ApiKeyRefused("the Authorization header must be \"Bearer zap_…\" with a key from the account page or POST /api/api-keys");
  const key = await db.apiKey.findUnique({
    where: { prefix: token.slice(0, API_KEY_PREFIX_LENGTH) },
    include: { owner: { select: { id: true, email: true, name: true, role: true, disabledAt: true, isDemo: true } } },
  });
  // The hash is compared even for an unknown prefix, so both take the same time.
  const presented = hashApiKeyToken(token);
  if (!sameHash(presented, key?.secretHash ?? "00".repeat(32)) || !key) throw new ApiKeyRefused("this key does not exist");
  if (key.revokedAt) throw new ApiKeyRefused(`this key was revoked at ${key.revokedAt.toISOString()}`);
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) throw new ApiKeyRefused(`this key expired at ${key.expiresAt.toISOString()}`);
  const owner = key.owner;
  if (owner.disabledAt) throw new ApiKeyRefused("the key's owner is disabled");
  if (owner.isDemo && getConfig().mode === "production") throw new ApiKeyRefused("the key's owner is a demo account, refused in production mode");
  if (!isRole(owner.role) || !isRole(key.role)) throw new ApiKeyRefused("the key's role is not one of " + ROLES.join(", "));
  try {
    await limiter(db).consume(key.id, 1);
  } catch (error) {
    if (error instanceof RateLimiterRes) {
      const wait = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      throw new RateLimitedError(wait, `This API key made more than ${API_KEY_LIMITS.requests} requests in ${API_KEY_LIMITS.windowSeconds} s; try again in ${wait} s`);
    }
    throw error;
  }
  const stale = new Date(now.getTime() - API_KEY_LIMITS.lastUsedResolutionMs);
  if (!key.lastUsedAt || key.lastUsedAt < stale) {
    await db.apiKey.updateMany({ where: { id: key.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: stale } }] }, data: { lastUsedAt: now } });
  }
  // The key acts with its own role, never above what the owner holds now.
  return { id: owner.id, email: owner.email, name: owner.name, role: capRole(key.role, owner.role), mustChangePassword: false, apiKeyId: key.id };
}
