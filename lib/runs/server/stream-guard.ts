import "server-only";
// The one guard every live stream (a run's events, the runs feed, the approvals
// feed) runs while it is open (issue 36 §1): it checks the stream's caller
// (stream-access.ts) every STREAM_RECHECK_MS whatever the stream is sending, so
// a busy stream is checked as often as a quiet one, and hands the stream how
// the caller's access ended; the stream sends `end` naming why
// (lib/runs/stream-end.ts) and closes. Sign-out on this server also nudges the
// user's streams to check at once (stream-limits.ts).
import type { AccessEnd } from "../stream-end";

/** How often an open stream checks its caller again, whatever it is sending (≤ 10 s: issue 36). */
export const STREAM_RECHECK_MS = 5_000;

/** The caller of a stream: `check` says null while they may still read, else how their access ended. */
export interface StreamCaller {
  check(now?: Date): Promise<AccessEnd | null>;
}

/**
 * Checks the caller every `periodMs` while the stream is open, and at once when
 * `nudge` aborts (sign-out on this server). `end` is called once: with how the
 * access ended, or with null when the check itself failed (the stream closes
 * without a reason; a reconnecting reader is checked afresh by the route).
 * Without a caller (a stream built in a test), a nudge ends the stream.
 * Stops when `stopped` aborts.
 */
export function guardStream(caller: StreamCaller | undefined, args: { stopped: AbortSignal; nudge?: AbortSignal; periodMs?: number; end: (end: AccessEnd | null) => void }): void {
  const { stopped } = args;
  if (stopped.aborted) return;
  let timer: ReturnType<typeof setInterval> | undefined;
  let checking = false;
  let done = false;
  const finish = (end: AccessEnd | null) => {
    if (done || stopped.aborted) return;
    done = true;
    clearInterval(timer);
    args.end(end);
  };
  const check = async () => {
    if (done || checking || stopped.aborted) return;
    if (!caller) return finish(null);
    checking = true;
    try {
      const ended = await caller.check();
      if (ended) finish(ended);
    } catch {
      finish(null);
    } finally {
      checking = false;
    }
  };
  if (caller) timer = setInterval(() => void check(), args.periodMs ?? STREAM_RECHECK_MS);
  stopped.addEventListener("abort", () => clearInterval(timer), { once: true });
  args.nudge?.addEventListener("abort", () => void check(), { once: true });
}
