import "server-only";
import ipaddr from "ipaddr.js";
import { RateLimiterPrisma } from "rate-limiter-flexible";
import type { Db } from "../../db/prisma";
import { appendAudit } from "../../audit/write";

// Sign-in throttling, stored in the database (rate_limits) so that every web
// server of a deployment, on SQLite or PostgreSQL, counts the same failures.
// Failures are counted per account (the email tried, whether it exists or not)
// and per client address; a success clears its account's count. The check runs
// before the password is hashed, so a flood never reaches argon2.

export const SIGN_IN_LIMITS = {
  /** Failures per account within the window before the account is blocked. */
  accountFailures: 10,
  /** Failures per client address within the window before the address is blocked. */
  ipFailures: 30,
  windowSeconds: 15 * 60,
  /** The first block of an account; each further block within a day doubles, up to a day. */
  firstBlockSeconds: 15 * 60,
  maxBlockSeconds: 24 * 60 * 60,
} as const;

/** Who is trying: the email as typed (lowercased) and the client address, or "direct" (null: count the account only). */
export interface SignInAttempt {
  email: string;
  ip: string | null;
}

interface Limiters {
  account: RateLimiterPrisma;
  /** How many times an account was blocked in the last day: the next block doubles. */
  lockouts: RateLimiterPrisma;
  ip: RateLimiterPrisma;
}

const limitersByDb = new WeakMap<Db, Limiters>();

function limiters(db: Db): Limiters {
  let found = limitersByDb.get(db);
  if (!found) {
    const make = (keyPrefix: string, points: number, duration: number) =>
      new RateLimiterPrisma({ storeClient: db, tableName: "rateLimit", keyPrefix, points, duration });
    found = {
      account: make("signin-account", SIGN_IN_LIMITS.accountFailures, SIGN_IN_LIMITS.windowSeconds),
      lockouts: make("signin-lockouts", 1_000, SIGN_IN_LIMITS.maxBlockSeconds),
      ip: make("signin-ip", SIGN_IN_LIMITS.ipFailures, SIGN_IN_LIMITS.windowSeconds),
    };
    limitersByDb.set(db, found);
  }
  return found;
}

/** The email as the limiter and the audit log key it: trimmed, lowercased, at most 320 characters. */
export function normalizeAttemptEmail(email: unknown): string {
  return typeof email === "string" ? email.trim().toLowerCase().slice(0, 320) : "";
}

/**
 * The client address of a request. Only a trusted reverse proxy's word counts:
 * with `trustProxy`, the LAST X-Forwarded-For hop (the one that proxy appended;
 * earlier hops are whatever the client sent); otherwise "direct", because Next
 * route handlers do not see the socket and any header could be forged.
 */
export function clientIp(headers: Headers, trustProxy: boolean): string {
  if (!trustProxy) return "direct";
  const hops = (headers.get("x-forwarded-for") ?? "").split(",").map((hop) => hop.trim()).filter(Boolean);
  const last = hops.at(-1);
  if (!last || !ipaddr.isValid(last)) return "direct";
  const address = ipaddr.process(last);
  return address.toString();
}

/**
 * The address to count, or null. Without a trusted proxy every caller is "direct":
 * one shared bucket that anyone could fill to lock everybody out, so it is not
 * counted at all and the per-account limits do the work.
 */
function countedIp(attempt: SignInAttempt): string | null {
  return attempt.ip === null || attempt.ip === "direct" ? null : attempt.ip;
}

/** Seconds until this attempt may be made, or 0 when it may be made now. Reads only; hashes nothing. */
export async function signInBlockedFor(db: Db, attempt: SignInAttempt): Promise<number> {
  const all = limiters(db);
  const ip = countedIp(attempt);
  const checks: [RateLimiterPrisma, string][] = ip === null ? [] : [[all.ip, ip]];
  if (attempt.email) checks.push([all.account, attempt.email]);
  let waitMs = 0;
  for (const [limiter, key] of checks) {
    const state = await limiter.get(key);
    if (state && state.consumedPoints >= limiter.points) waitMs = Math.max(waitMs, state.msBeforeNext);
  }
  return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
}

/**
 * Counts a failed sign-in against the account and the address; the failure that
 * reaches a limit blocks it (an account for 15 min, 30 min, 1 h… within a day)
 * and is audited as `auth.sign_in_throttled` once per block — refused attempts
 * during a block are not written, so a flood cannot grow the audit log.
 */
export async function recordSignInFailure(db: Db, attempt: SignInAttempt): Promise<void> {
  const all = limiters(db);
  if (attempt.email) {
    const counted = await all.account.penalty(attempt.email, 1);
    if (counted.consumedPoints >= all.account.points) {
      const lockouts = await all.lockouts.penalty(attempt.email, 1);
      const seconds = Math.min(SIGN_IN_LIMITS.firstBlockSeconds * 2 ** Math.min(lockouts.consumedPoints - 1, 10), SIGN_IN_LIMITS.maxBlockSeconds);
      await all.account.block(attempt.email, seconds);
      await appendAudit(db, { actorId: null, action: "auth.sign_in_throttled", target: attempt.email, details: { email: attempt.email, ip: attempt.ip, scope: "account", blockedSeconds: seconds } });
    }
  }
  const ip = countedIp(attempt);
  if (ip === null) return;
  const counted = await all.ip.penalty(ip, 1);
  if (counted.consumedPoints >= all.ip.points) {
    await all.ip.block(ip, SIGN_IN_LIMITS.windowSeconds);
    await appendAudit(db, { actorId: null, action: "auth.sign_in_throttled", target: ip, details: { email: attempt.email, ip, scope: "ip", blockedSeconds: SIGN_IN_LIMITS.windowSeconds } });
  }
}

/** A successful sign-in clears its account's failures and backoff (not the address's: one good account must not launder guesses at others). */
export async function recordSignInSuccess(db: Db, attempt: SignInAttempt): Promise<void> {
  const all = limiters(db);
  await all.account.delete(attempt.email);
  await all.lockouts.delete(attempt.email);
}
