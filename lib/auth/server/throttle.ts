import "server-only";
import ipaddr from "ipaddr.js";
import { RateLimiterPrisma } from "rate-limiter-flexible";
import type { Db } from "../../db/prisma";
import type { DbTransaction } from "../../db/transactions";
import { appendAudit } from "../../audit/write";

// Sign-in throttling, stored in the database (rate_limits) so that every web
// server of a deployment, on SQLite or PostgreSQL, counts the same attempts.
//
// An attempt is counted BEFORE its password is verified, by one atomic
// increment per counter (consumeSignInAttempt): sixty guesses sent at once get
// sixty distinct counts, and only those within the limits reach argon2. Three
// counters, each over a 15-minute window:
// - account+address: ten failures block that address for that account (15 min,
//   doubling per block within a day, up to a day); nobody else is affected;
// - address: thirty failures over any accounts block the address;
// - account (from anywhere): ten failures put the account on guard (15 min,
//   doubling likewise): only an address with no failures in the window may
//   try, once. The owner signs in from anywhere they have not failed; an
//   attacker's addresses get one guess each per window. Nothing blocks the
//   account itself, so nobody can lock anyone out; an admin sees and lifts blocks.
// Without a trusted proxy every caller is "direct": the address is not counted
// and account+address is the account (one block for everyone, lifted by an admin).

export const SIGN_IN_LIMITS = {
  /** Failures of one account from one address within the window before that address is blocked for it. */
  pairFailures: 10,
  /** Failures of one account from any address within the window before it is on guard (only addresses without failures may try). */
  accountFailures: 10,
  /** Failures per client address within the window before the address is blocked. */
  ipFailures: 30,
  windowSeconds: 15 * 60,
  /** The first block (or guard); each further one within a day doubles, up to a day. */
  firstBlockSeconds: 15 * 60,
  maxBlockSeconds: 24 * 60 * 60,
} as const;

/** Who is trying: the email as typed (lowercased) and the client address, or "direct" (null: no address, e.g. a signed-in user's own password check). */
export interface SignInAttempt {
  email: string;
  ip: string | null;
}

/** An attempt that was counted and may verify its password: what it was counted as, for recording its outcome. */
export interface SignInTicket {
  attempt: SignInAttempt;
  /** Counts including this attempt (null: that counter does not apply). */
  ipCount: number | null;
  pairCount: number | null;
  accountCount: number | null;
}

export type SignInGate = { allowed: true; ticket: SignInTicket } | { allowed: false; retryAfterSeconds: number; scope: "ip" | "pair" | "account" };

const PREFIX = { ip: "signin-ip", pair: "signin-pair", pairLockouts: "signin-pair-lockouts", account: "signin-account", accountLockouts: "signin-account-lockouts" } as const;

interface Limiters {
  ip: RateLimiterPrisma;
  pair: RateLimiterPrisma;
  /** How many times a pair was blocked in the last day: the next block doubles. */
  pairLockouts: RateLimiterPrisma;
  account: RateLimiterPrisma;
  accountLockouts: RateLimiterPrisma;
}

const limitersByDb = new WeakMap<Db, Limiters>();

function limiters(db: Db): Limiters {
  let found = limitersByDb.get(db);
  if (!found) {
    const make = (keyPrefix: string, points: number, duration: number) =>
      new RateLimiterPrisma({ storeClient: db, tableName: "rateLimit", keyPrefix, points, duration });
    found = {
      ip: make(PREFIX.ip, SIGN_IN_LIMITS.ipFailures, SIGN_IN_LIMITS.windowSeconds),
      pair: make(PREFIX.pair, SIGN_IN_LIMITS.pairFailures, SIGN_IN_LIMITS.windowSeconds),
      pairLockouts: make(PREFIX.pairLockouts, 1_000, SIGN_IN_LIMITS.maxBlockSeconds),
      account: make(PREFIX.account, SIGN_IN_LIMITS.accountFailures, SIGN_IN_LIMITS.windowSeconds),
      accountLockouts: make(PREFIX.accountLockouts, 1_000, SIGN_IN_LIMITS.maxBlockSeconds),
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

/** The account+address key: the email, then the address after the last "|" ("-" without one). */
function pairKey(attempt: SignInAttempt): string {
  return `${attempt.email}|${attempt.ip ?? "-"}`;
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/**
 * Whether this attempt would be refused now, and for how long (0: it may be
 * made). Reads only, for answering 429 early (the sign-in route and form); the
 * decision that counts is consumeSignInAttempt's.
 */
export async function signInBlockedFor(db: Db, attempt: SignInAttempt): Promise<number> {
  const all = limiters(db);
  const ip = countedIp(attempt);
  const [ipState, pairState, accountState] = await Promise.all([
    ip === null ? null : all.ip.get(ip),
    attempt.email ? all.pair.get(pairKey(attempt)) : null,
    attempt.email ? all.account.get(attempt.email) : null,
  ]);
  if (ipState && ipState.consumedPoints >= SIGN_IN_LIMITS.ipFailures) return seconds(ipState.msBeforeNext);
  if (pairState && pairState.consumedPoints >= SIGN_IN_LIMITS.pairFailures) return seconds(pairState.msBeforeNext);
  const fresh = (pairState?.consumedPoints ?? 0) === 0 && (ipState?.consumedPoints ?? 0) === 0;
  if (accountState && accountState.consumedPoints >= SIGN_IN_LIMITS.accountFailures && !fresh) return seconds(accountState.msBeforeNext);
  return 0;
}

/**
 * Counts a sign-in attempt before its password is verified: one atomic
 * increment per counter, each compared with its limit, so concurrent attempts
 * cannot all read "under the limit". A refused attempt verifies nothing (and is
 * not audited: a flood cannot grow the audit log). The ticket goes to
 * recordSignInFailure or recordSignInSuccess once the password is checked.
 */
export async function consumeSignInAttempt(db: Db, attempt: SignInAttempt): Promise<SignInGate> {
  const all = limiters(db);
  const ip = countedIp(attempt);
  let ipCount: number | null = null;
  if (ip !== null) {
    const counted = await all.ip.penalty(ip, 1);
    ipCount = counted.consumedPoints;
    if (ipCount > SIGN_IN_LIMITS.ipFailures) return { allowed: false, retryAfterSeconds: seconds(counted.msBeforeNext), scope: "ip" };
  }
  if (!attempt.email) return { allowed: true, ticket: { attempt, ipCount, pairCount: null, accountCount: null } };
  const pair = await all.pair.penalty(pairKey(attempt), 1);
  if (pair.consumedPoints > SIGN_IN_LIMITS.pairFailures) return { allowed: false, retryAfterSeconds: seconds(pair.msBeforeNext), scope: "pair" };
  const account = await all.account.penalty(attempt.email, 1);
  // On guard, only an address with no failures in the window (this attempt its first, for the account and overall) may try.
  const fresh = pair.consumedPoints === 1 && (ipCount === null || ipCount === 1);
  if (account.consumedPoints > SIGN_IN_LIMITS.accountFailures && !fresh) {
    return { allowed: false, retryAfterSeconds: seconds(account.msBeforeNext), scope: "account" };
  }
  return { allowed: true, ticket: { attempt, ipCount, pairCount: pair.consumedPoints, accountCount: account.consumedPoints } };
}

async function backoffSeconds(lockouts: RateLimiterPrisma, key: string): Promise<number> {
  const counted = await lockouts.penalty(key, 1);
  return Math.min(SIGN_IN_LIMITS.firstBlockSeconds * 2 ** Math.min(counted.consumedPoints - 1, 10), SIGN_IN_LIMITS.maxBlockSeconds);
}

/**
 * A counted attempt failed. The failure that reaches a limit (exactly one does,
 * the counts being atomic) starts the block — the address for this account, the
 * account's guard, the address — and it is audited as `auth.sign_in_throttled`
 * once per block.
 */
export async function recordSignInFailure(db: Db, ticket: SignInTicket): Promise<void> {
  const all = limiters(db);
  const { attempt } = ticket;
  if (ticket.pairCount === SIGN_IN_LIMITS.pairFailures) {
    const key = pairKey(attempt);
    const blockedSeconds = await backoffSeconds(all.pairLockouts, key);
    await all.pair.block(key, blockedSeconds);
    await appendAudit(db, { actorId: null, action: "auth.sign_in_throttled", target: attempt.email, details: { email: attempt.email, ip: attempt.ip, scope: "address", blockedSeconds } });
  }
  if (ticket.accountCount === SIGN_IN_LIMITS.accountFailures) {
    const guardedSeconds = await backoffSeconds(all.accountLockouts, attempt.email);
    await all.account.block(attempt.email, guardedSeconds);
    await appendAudit(db, { actorId: null, action: "auth.sign_in_throttled", target: attempt.email, details: { email: attempt.email, ip: attempt.ip, scope: "account", guardedSeconds } });
  }
  const ip = countedIp(attempt);
  if (ip !== null && ticket.ipCount === SIGN_IN_LIMITS.ipFailures) {
    await all.ip.block(ip, SIGN_IN_LIMITS.windowSeconds);
    await appendAudit(db, { actorId: null, action: "auth.sign_in_throttled", target: ip, details: { email: attempt.email, ip, scope: "ip", blockedSeconds: SIGN_IN_LIMITS.windowSeconds } });
  }
}

/**
 * A counted attempt succeeded: the password's holder proved it. Its own count
 * is given back to the address; the account+address count and the account's
 * count and guard are cleared. Blocks of other addresses for this account stay
 * (one good sign-in must not launder an attacker's guesses), and so does the
 * day's backoff.
 */
export async function recordSignInSuccess(db: Db, ticket: SignInTicket): Promise<void> {
  const all = limiters(db);
  const ip = countedIp(ticket.attempt);
  if (ip !== null && ticket.ipCount !== null) await all.ip.reward(ip, 1);
  await all.pair.delete(pairKey(ticket.attempt));
  await all.account.delete(ticket.attempt.email);
}

/** A block an admin sees on the users page: the addresses refused for the account, and the account's guard. */
export interface SignInBlockState {
  addresses: { address: string; until: string }[];
  /** Until when only addresses without failures may try (null: not on guard). */
  guardedUntil: string | null;
}

function emailOfPairKey(key: string): { email: string; address: string } | null {
  const rest = key.slice(PREFIX.pair.length + 1);
  const bar = rest.lastIndexOf("|");
  return bar < 0 ? null : { email: rest.slice(0, bar), address: rest.slice(bar + 1) };
}

/** The current blocks of these accounts (by email), for admins; accounts without one are left out. */
export async function signInBlocks(db: Db | DbTransaction, emails: string[]): Promise<Map<string, SignInBlockState>> {
  const found = new Map<string, SignInBlockState>();
  if (emails.length === 0) return found;
  const now = new Date();
  const rows = await db.rateLimit.findMany({
    where: {
      expire: { gt: now },
      OR: [
        { key: { in: emails.map((e) => `${PREFIX.account}:${e}`) }, points: { gte: SIGN_IN_LIMITS.accountFailures } },
        ...emails.map((e) => ({ key: { startsWith: `${PREFIX.pair}:${e}|` }, points: { gte: SIGN_IN_LIMITS.pairFailures } })),
      ],
    },
    orderBy: { key: "asc" },
  });
  const wanted = new Set(emails);
  const entry = (email: string) => found.get(email) ?? found.set(email, { addresses: [], guardedUntil: null }).get(email)!;
  for (const row of rows) {
    const until = row.expire!.toISOString();
    if (row.key.startsWith(`${PREFIX.account}:`)) {
      const email = row.key.slice(PREFIX.account.length + 1);
      if (wanted.has(email)) entry(email).guardedUntil = until;
      continue;
    }
    const pair = emailOfPairKey(row.key);
    if (pair && wanted.has(pair.email)) entry(pair.email).addresses.push({ address: pair.address, until });
  }
  return found;
}

/**
 * Lifts every sign-in block of an account (each address's, the guard, the
 * day's backoff), in the caller's transaction (which audits it). Address-wide
 * blocks are not the account's and stay. Returns what was lifted.
 */
export async function liftSignInBlocks(tx: DbTransaction, email: string): Promise<SignInBlockState> {
  const lifted = (await signInBlocks(tx, [email])).get(email) ?? { addresses: [], guardedUntil: null };
  const rows = await tx.rateLimit.findMany({
    where: { OR: [{ key: { startsWith: `${PREFIX.pair}:${email}|` } }, { key: { startsWith: `${PREFIX.pairLockouts}:${email}|` } }] },
    select: { key: true },
  });
  const keys = rows.map((r) => r.key).filter((key) => emailOfPairKey(key.replace(PREFIX.pairLockouts, PREFIX.pair))?.email === email);
  keys.push(`${PREFIX.account}:${email}`, `${PREFIX.accountLockouts}:${email}`);
  await tx.rateLimit.deleteMany({ where: { key: { in: keys } } });
  return lifted;
}
