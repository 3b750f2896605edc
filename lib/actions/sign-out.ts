"use server";
import { auth, signOut } from "../auth/server/auth";
import { recordSignOut } from "../auth/server/sessions";
import { SIGN_IN_PATH } from "../auth/auth-config";
import { getDb } from "../db/server/db";
import { recheckUserStreams } from "../runs/server/stream-limits";

/**
 * Ends the session on the server first (its token is refused from then on,
 * wherever a copy of the cookie survives), then clears the cookie and returns
 * to the sign-in page. If the end cannot be recorded, the action fails and the
 * session visibly stays rather than only looking ended. This server's streams
 * of the user re-check their caller at once (the session's end with
 * `session_ended`); other servers' within their period, from the record.
 */
export async function signOutAction(): Promise<void> {
  const session = await auth();
  if (session?.sessionId && session.user?.id) {
    await recordSignOut(getDb(), { sessionId: session.sessionId, userId: session.user.id });
    recheckUserStreams(session.user.id);
  }
  await signOut({ redirectTo: SIGN_IN_PATH });
}
