import "server-only";
// Whether the caller that opened a live stream may still read it: checked on
// each heartbeat, so a stream does not outlive a revoked API key, a session
// signed out elsewhere, or a disabled user (sign-out on this server also ends
// the streams at once: stream-limits.ts).
import { auth, sessionUserValid } from "../../auth/server/auth";
import { authenticateApiKey, bearerToken } from "../../auth/server/api-keys";
import { isSignedOut } from "../../auth/server/sessions";
import { getDb } from "../../db/server/db";

/** Called in the request that opens the stream; the check it returns runs later, outside it. */
export async function streamAccessCheck(request: Request): Promise<() => Promise<boolean>> {
  const db = getDb();
  const token = bearerToken(request.headers);
  if (token !== null) return () => authenticateApiKey(token, db).then(() => true, () => false);
  const session = await auth();
  const userId = session?.user?.id;
  const sessionId = session?.sessionId;
  const signedInAt = session?.signedInAt ?? 0;
  // A token from before sessions had ids can never be signed out; its user can still be disabled.
  return async () => {
    if (!userId) return false;
    if (sessionId && (await isSignedOut(db, { sessionId, userId, signedInAt }))) return false;
    return sessionUserValid(db, userId, signedInAt);
  };
}
