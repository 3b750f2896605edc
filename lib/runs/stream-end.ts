// The last frame of every live stream (a run's events, the runs feed, the
// approvals feed): `event: end` with a JSON body naming why it ended. Either the
// run is final and every event was sent (the run stream only), or the caller
// may no longer read (issue 36 §1: the stream re-checks its caller on a short
// period). Browser-safe: the pages and the TypeScript client read it.
import type { RunStatus } from "../contract/types";

/** Why a caller's access ended, as a stream's `end` event says it. */
export const ACCESS_END_REASONS = [
  /** The API key was revoked (or no longer exists). */
  "key_revoked",
  /** The API key's expiry passed. */
  "key_expired",
  /** The account was disabled (or removed, or is a demo account in production mode). */
  "user_disabled",
  /** The account must choose a new password (an admin reset it): sessions and keys do nothing until then. */
  "password_reset",
  /** The session was signed out (on any web server), or ended by a password change or re-enable. */
  "session_ended",
  /** The session is older than its 12 hours. */
  "session_expired",
] as const;
export type AccessEndReason = (typeof ACCESS_END_REASONS)[number];

/** An access that ended: the reason, and one line for a person. */
export interface AccessEnd {
  reason: AccessEndReason;
  message: string;
}

/** The data of an `end` event. A server from before reasons sent `{status, lastEventSeq}` only: that is a finished run. */
export type StreamEnd = { reason: "run_finished"; status: RunStatus; lastEventSeq: number } | AccessEnd;

/** The SSE text of an `end` event. */
export function endEventText(end: StreamEnd): string {
  return `event: end\ndata: ${JSON.stringify(end)}\n\n`;
}

/** The access end an `end` event's data names, or null when it ended because the run finished (or the data is not ours). */
export function accessEndOf(data: string): AccessEnd | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const { reason, message } = parsed as { reason?: unknown; message?: unknown };
  const known = ACCESS_END_REASONS.find((r) => r === reason);
  if (!known) return null;
  return { reason: known, message: typeof message === "string" ? message : "Your access to this stream ended" };
}
