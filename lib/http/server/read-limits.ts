import "server-only";
// Reads that cost the server far more than a request costs the caller (issue
// 36 §3): a run comparison reads two whole run trees and aligns them on the
// web server's event loop, a page of compared steps rebuilds a tree that is not
// cached, and opening a model call in the playground starts a workflow that
// connects to the agent's MCP servers. Each is counted per caller in the
// database (every web server shares the count), with the limiter API keys use
// (rate-limiter-flexible over the rate_limits table): a session counts against
// its user, a key against itself. Past the limit → 429 with Retry-After.
import { RateLimiterPrisma, RateLimiterRes } from "rate-limiter-flexible";
import type { Db } from "../../db/prisma";
import { getDb } from "../../db/server/db";
import { RateLimitedError } from "../../errors";
import type { SessionUser } from "../../auth/server/session";

/** Per caller per window. The compare page itself makes one comparison and a few pages of steps per open. */
export const EXPENSIVE_READ_LIMITS = {
  "runs.compare": { points: 30, windowSeconds: 60, what: "run comparisons" },
  "runs.compare_steps": { points: 300, windowSeconds: 60, what: "pages of compared steps" },
  "playground.open": { points: 20, windowSeconds: 60, what: "model calls opened in the playground" },
} as const;

export type ExpensiveRead = keyof typeof EXPENSIVE_READ_LIMITS;

const limiters = new WeakMap<Db, Map<ExpensiveRead, RateLimiterPrisma>>();

function limiter(db: Db, read: ExpensiveRead): RateLimiterPrisma {
  let byRead = limiters.get(db);
  if (!byRead) limiters.set(db, (byRead = new Map()));
  let found = byRead.get(read);
  if (!found) {
    const { points, windowSeconds } = EXPENSIVE_READ_LIMITS[read];
    found = new RateLimiterPrisma({ storeClient: db, tableName: "rateLimit", keyPrefix: `read:${read}`, points, duration: windowSeconds });
    byRead.set(read, found);
  }
  return found;
}

/** Who a read is counted against: the key when the caller used one (lib/auth/server/api-keys.ts ApiKeyUser), else the user. */
export function readBucketOf(user: SessionUser): string {
  const apiKeyId = (user as SessionUser & { apiKeyId?: unknown }).apiKeyId;
  return typeof apiKeyId === "string" ? `key:${apiKeyId}` : `user:${user.id}`;
}

/** Counts one `read` for `user`, or throws RateLimitedError (429) saying how many are allowed and when to retry. */
export async function limitExpensiveRead(user: SessionUser, read: ExpensiveRead, db: Db = getDb()): Promise<void> {
  try {
    await limiter(db, read).consume(readBucketOf(user), 1);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    const { points, windowSeconds, what } = EXPENSIVE_READ_LIMITS[read];
    const wait = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    throw new RateLimitedError(wait, `At most ${points} ${what} per ${windowSeconds} s for each user and API key: try again in ${wait} s`);
  }
}
