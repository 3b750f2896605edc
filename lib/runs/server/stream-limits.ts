import "server-only";
// One per-user cap for every live stream this web process serves (a run's
// events, the runs list, the inbox): a tab per page is normal, hundreds are a
// leak or an abuse. A slot also carries a signal that aborts when the user signs
// out on this server: the stream then re-checks its caller at once instead of
// within its period (stream-access.ts). That check reads the database, so it
// is also what ends streams on the other web servers; this is only the fast path.
import { RateLimitedError } from "../../errors";

/** Open streams per user on this web server, all kinds together. */
export const STREAMS_PER_USER = 16;

/** What a stream holds while it is open. */
export interface StreamSlot {
  /** Aborted when the user signs out here (recheckUserStreams); the stream re-checks its caller then. */
  readonly signal: AbortSignal;
  /** Gives the slot back; safe to call more than once. */
  release(): void;
}

// Shared through globalThis: Next builds route handlers and server actions as
// separate module graphs, and the sign-out action must reach the routes' streams.
const REGISTRY_KEY = Symbol.for("zap-studio.stream-slots");
type Registry = Map<string, Set<AbortController>>;
const registry = (): Registry => {
  const holder = globalThis as { [REGISTRY_KEY]?: Registry };
  holder[REGISTRY_KEY] ??= new Map();
  return holder[REGISTRY_KEY];
};

/** Takes one of the user's stream slots, or refuses with 429 when all are taken. */
export function takeStreamSlot(userId: string): StreamSlot {
  const slots = registry().get(userId) ?? new Set<AbortController>();
  if (slots.size >= STREAMS_PER_USER) throw new RateLimitedError(5, `At most ${STREAMS_PER_USER} open live streams per user; close one, or try again in 5 s`);
  const controller = new AbortController();
  slots.add(controller);
  registry().set(userId, slots);
  let released = false;
  return {
    signal: controller.signal,
    release() {
      if (released) return;
      released = true;
      const current = registry().get(userId);
      current?.delete(controller);
      if (current && current.size === 0) registry().delete(userId);
    },
  };
}

/** How many streams the user has open now (for tests and diagnostics). */
export function openStreamCount(userId: string): number {
  return registry().get(userId)?.size ?? 0;
}

/**
 * Asks every open stream of the user to re-check its caller now (sign-out on
 * this server): the signed-out session's streams end, the user's other
 * sessions and keys go on (a stream built without a caller, in a test, ends).
 * Returns how many were open.
 */
export function recheckUserStreams(userId: string): number {
  const slots = registry().get(userId);
  if (!slots) return 0;
  const count = slots.size;
  for (const controller of [...slots]) controller.abort();
  return count;
}
