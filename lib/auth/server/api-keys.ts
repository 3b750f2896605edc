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
import { capRole, isRole, ROLES, type Role } from "../../access/roles";
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

/** Why a key is refused, for callers that act on it (a live stream names it in its `end` event). */
export type ApiKeyRefusal = "malformed" | "unknown" | "revoked" | "expired" | "owner_disabled" | "owner_demo" | "owner_must_change_password" | "bad_role";

/** A key that may act (its row and owner), or why not, with the one line a 401 says. */
export type ApiKeyStanding =
  | { ok: true; key: { id: string; role: Role; lastUsedAt: Date | null }; owner: { id: string; email: string; name: string; role: Role } }
  | { ok: false; refusal: ApiKeyRefusal; line: string };

const refused = (refusal: ApiKeyRefusal, line: string): ApiKeyStanding => ({ ok: false, refusal, line });

/**
 * Whether a token is a key that may act now: the one place that says so, for
 * every request (authenticateApiKey) and every live stream's re-check
 * (lib/runs/server/stream-access.ts). Reads one row; counts nothing.
 */
export async function apiKeyStanding(token: string, db: Db = getDb(), now = new Date()): Promise<ApiKeyStanding> {
  if (!TOKEN_PATTERN.test(token)) return refused("malformed", "the Authorization header must be \"Bearer zap_…\" with a key from the account page or POST /api/api-keys");
  const key = await db.apiKey.findUnique({
    where: { prefix: token.slice(0, API_KEY_PREFIX_LENGTH) },
    include: { owner: { select: { id: true, email: true, name: true, role: true, disabledAt: true, isDemo: true, mustChangePassword: true } } },
  });
  // The hash is compared even for an unknown prefix, so both take the same time.
  const presented = hashApiKeyToken(token);
  if (!sameHash(presented, key?.secretHash ?? "00".repeat(32)) || !key) return refused("unknown", "this key does not exist");
  if (key.revokedAt) return refused("revoked", `this key was revoked at ${key.revokedAt.toISOString()}`);
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return refused("expired", `this key expired at ${key.expiresAt.toISOString()}`);
  const owner = key.owner;
  if (owner.disabledAt) return refused("owner_disabled", "the key's owner is disabled");
  if (owner.isDemo && getConfig().mode === "production") return refused("owner_demo", "the key's owner is a demo account, refused in production mode");
  // A one-time password (an admin's reset, a new account) allows nothing but choosing one's own: not through a key either.
  if (owner.mustChangePassword) return refused("owner_must_change_password", "the key's owner must choose a new password first (sign in and set it on the Account page)");
  if (!isRole(owner.role) || !isRole(key.role)) return refused("bad_role", "the key's role is not one of " + ROLES.join(", "));
  return { ok: true, key: { id: key.id, role: key.role, lastUsedAt: key.lastUsedAt }, owner: { id: owner.id, email: owner.email, name: owner.name, role: owner.role } };
}

/**
 * Resolves a Bearer token to the key's owner, or throws ApiKeyRefused (401, one
 * line saying why: apiKeyStanding) or RateLimitedError (429, per key). The role
 * is the key's, lowered to the owner's current one. Stamps lastUsedAt at most
 * once a minute.
 */
export async function authenticateApiKey(token: string, db: Db = getDb(), now = new Date()): Promise<ApiKeyUser> {
  const standing = await apiKeyStanding(token, db, now);
  if (!standing.ok) throw new ApiKeyRefused(standing.line);
  const { key, owner } = standing;
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
