import "server-only";
// Whether the caller that opened a live stream may still read it (issue 36 §1),
// checked by the guard every stream runs (stream-guard.ts). The check reads the
// key, the session's sign-out record and the account from the database, so a
// key revoked, a user disabled or reset, or a session signed out on any web
// server ends every stream on every web server. Only the routes import this
// file (it reads the request's session through Auth.js).
import type { Db } from "../../db/prisma";
import { auth } from "../../auth/server/auth";
import { apiKeyStanding, bearerToken, type ApiKeyRefusal } from "../../auth/server/api-keys";
import { isSignedOut, sessionUserStanding, type SessionClaims } from "../../auth/server/sessions";
import { SESSION_MAX_AGE_SECONDS } from "../../auth/auth-config";
import { getDb } from "../../db/server/db";
import type { AccessEndReason } from "../stream-end";
import type { StreamCaller } from "./stream-guard";

const KEY_ENDS: Record<ApiKeyRefusal, AccessEndReason> = {
  malformed: "key_revoked",
  unknown: "key_revoked",
  revoked: "key_revoked",
  expired: "key_expired",
  owner_disabled: "user_disabled",
  owner_demo: "user_disabled",
  owner_must_change_password: "password_reset",
  bad_role: "key_revoked",
};

/** A stream opened with an API key: the key's standing, the same rules a request meets (apiKeyStanding). */
export function keyCaller(db: Db, token: string): StreamCaller {
  return {
    async check(now = new Date()) {
      const standing = await apiKeyStanding(token, db, now);
      return standing.ok ? null : { reason: KEY_ENDS[standing.refusal], message: `API key refused: ${standing.line}` };
    },
  };
}

/** A stream opened with a session: signed out anywhere, the account's state, a one-time password, its age. */
export function sessionCaller(db: Db, session: SessionClaims): StreamCaller {
  return {
    async check(now = new Date()) {
      if (await isSignedOut(db, session)) return { reason: "session_ended", message: "This session was signed out; sign in again" };
      const { refusal, mustChangePassword } = await sessionUserStanding(db, session.userId, session.signedInAt);
      if (refusal === "user_disabled") return { reason: "user_disabled", message: "Your account was disabled" };
      // An admin's reset both ends sessions and sets a one-time password: the reset is the reason worth naming.
      if (mustChangePassword) return { reason: "password_reset", message: "Your password was reset: sign in and choose a new one" };
      if (refusal === "sessions_ended") return { reason: "session_ended", message: "This session ended (the password was changed or the account re-enabled); sign in again" };
      if (now.getTime() >= session.signedInAt + SESSION_MAX_AGE_SECONDS * 1000) return { reason: "session_expired", message: "This session expired; sign in again" };
      return null;
    },
  };
}

const NO_SESSION: StreamCaller = { check: async () => ({ reason: "session_ended", message: "Sign in to continue" }) };

/** The caller of the request that opens a stream (its key, else its session); called inside that request, checked later outside it. */
export async function streamCaller(request: Request, db: Db = getDb()): Promise<StreamCaller> {
  const token = bearerToken(request.headers);
  if (token !== null) return keyCaller(db, token);
  const session = await auth();
  const userId = session?.user?.id;
  // The jwt callback refuses tokens without a session id, so a route that let the request in always has one.
  if (!userId || !session.sessionId || typeof session.signedInAt !== "number") return NO_SESSION;
  return sessionCaller(db, { userId, sessionId: session.sessionId, signedInAt: session.signedInAt });
}

