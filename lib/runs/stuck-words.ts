// The "stuck or burning" view in words: why a quiet run is in it (waiting for
// an approver is not the same as no progress), what the view looks for with
// the thresholds in use, and where a waiting call is decided.
import { STUCK_DEFAULTS } from "./schemas";

/** "12 min", or "3 h" from two hours on. */
export function quietFor(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  return minutes >= 120 ? `${Math.floor(minutes / 60)} h` : `${minutes} min`;
}

/** Why a run that wrote nothing for `quietMs` is in the view: an approver's wait, or no progress. */
export function quietReason(quietMs: number, waitingForApprover: boolean): string {
  return waitingForApprover ? `waiting for an approver for ${quietFor(quietMs)}` : `no progress for ${quietFor(quietMs)}`;
}

/** The view's description with the thresholds it is read with (the URL's, else the defaults). */
export function stuckDescription(thresholds: { stuckMinutes?: number; burnPerMinute?: number }): string {
  const minutes = thresholds.stuckMinutes ?? STUCK_DEFAULTS.stuckMinutes;
  const burn = thresholds.burnPerMinute ?? STUCK_DEFAULTS.burnPerMinute;
  return `Working runs that retried a tool call, made no progress for ${minutes} min (or wait that long for an approver), or spend more than $${burn.toFixed(2)} a minute`;
}

/** The inbox with one waiting call chosen (app/(dashboard)/inbox reads `approval`). */
export function inboxHref(approvalId: string): string {
  return `/inbox?approval=${encodeURIComponent(approvalId)}`;
}
