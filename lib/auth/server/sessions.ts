import "server-only";
import type { JWT } from "next-auth/jwt";
import type { Db } from "../../db/prisma";
import { appendAudit } from "../../audit/write";
import type { AuditAction } from "../../audit/actions";
import { getConfig } from "../../config/server/config";

// Sessions are signed JWTs in a cookie, so deleting the cookie alone does not end
// one: a copy (another tab's late response, a saved cookie jar) would still be
// accepted until it expires. Signing out therefore also records the session's
// id, and the server refuses tokens of sessions recorded here. The record is an
// audit event, so every sign-out is audited too.

/** The audit action of a sign-out; its target is the session id. */
export const SESSION_SIGNED_OUT = "session.signed_out" satisfies AuditAction;

// Several web servers may mint and check tokens: allow for their clocks disagreeing.
const CLOCK_SKEW_MS = 5 * 60_000;

/** What a session's token says about the sign-in it came from (set in auth-config.ts). */
export interface SessionClaims {
  sessionId: string;
  userId: string;
  signedInAt: number;
}

/** The session claims of a token, or null for a token minted before sessions had ids (it could never be signed out). */
export function sessionClaims(token: JWT): SessionClaims | null {
  const { sid, sub, signedInAt } = token;
  if (typeof sid !== "string" || !sid || typeof sub !== "string" || !sub || typeof signedInAt !== "number") return null;
  return { sessionId: sid, userId: sub, signedInAt };
}

/** Records that a session was signed out: from now on its token is refused wherever a copy turns up. */
export async function recordSignOut(db: Db, session: { sessionId: string; userId: string }): Promise<void> {
  await appendAudit(db, { actorId: session.userId, action: SESSION_SIGNED_OUT, target: session.sessionId });
}

/** Whether the session was signed out. Only records made after its sign-in can concern it, which keeps the look-up on the (action, createdAt) index. */
export async function isSignedOut(db: Db, session: SessionClaims): Promise<boolean> {
  const record = await db.auditEvent.findFirst({
    where: { action: SESSION_SIGNED_OUT, target: session.sessionId, createdAt: { gte: new Date(session.signedInAt - CLOCK_SKEW_MS) } },
    select: { id: true },
  });
  return record !== null;
}

/** Why a session's account no longer lets it be used: gone or disabled (or a demo account in production mode), or its sessions were ended after this one began. */
export type SessionUserRefusal = "user_disabled" | "sessions_ended";

/**
 * The account's side of a session: refused when the user does not exist, is
 * disabled (or is a demo account in production mode), or ended their sessions
 * after this one began (a password change or reset, a disable or enable);
 * `mustChangePassword` when a one-time password waits to be replaced.
 */
export async function sessionUserStanding(db: Db, userId: string, signedInAt: number): Promise<{ refusal: SessionUserRefusal | null; mustChangePassword: boolean }> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { disabledAt: true, sessionsValidAfter: true, isDemo: true, mustChangePassword: true } });
  if (!user || user.disabledAt) return { refusal: "user_disabled", mustChangePassword: false };
  if (user.isDemo && getConfig().mode === "production") return { refusal: "user_disabled", mustChangePassword: false };
  const ended = user.sessionsValidAfter !== null && signedInAt < user.sessionsValidAfter.getTime();
  return { refusal: ended ? "sessions_ended" : null, mustChangePassword: user.mustChangePassword };
}
