import "server-only";
// The live lists' feeds as Server-Sent Events: GET /api/runs/feed (runs
// changed) and GET /api/approvals/feed (approvals asked or decided). Each feed
// listens to the process's shared poller (live-changes.ts) instead of querying
// the database itself; a reader that reconnects with Last-Event-ID (a change's
// cursor) first gets what changed since, read once from the ledger. A reader
// too slow to keep up is never waited for: its changes are dropped and it gets
// one `resync` (reload the list) once it reads again. Every feed holds one of
// the user's stream slots (stream-limits.ts), re-checks its caller every few
// seconds whatever it sends, and ends with `end` naming why once they may no
// longer read (stream-access.ts).
import type { Db } from "../../db/prisma";
import type { LiveChange, LiveTopic } from "../live-feed";
import { collectChanges, emptyMemory, liveChanges, LOOKBACK_MS } from "./live-changes";
import { takeStreamSlot } from "./stream-limits";
import { guardStream, type StreamCaller } from "./stream-guard";
import { endEventText } from "../stream-end";

export const FEED_HEARTBEAT_MS = 15_000;
/** Frames a reader may leave unread before its changes are dropped for a `resync`. */
export const FEED_BUFFER_FRAMES = 256;

/** One SSE frame of a change: its cursor is the id, its kind the event name. */
export function changeFrame(change: LiveChange): string {
  return `id: ${change.cursor}\nevent: ${change.event}\ndata: ${JSON.stringify(change.data)}\n\n`;
}

/** Where a feed resumes: after Last-Event-ID when the browser reconnects, else after `since`; null: from now on. */
export function feedResumeFrom(lastEventId: string | null, since: number | undefined): number | null {
  if (lastEventId !== null && /^\d{1,15}$/.test(lastEventId.trim())) return Number(lastEventId.trim());
  return since ?? null;
}

/** The changes of `topic` since `cursor`, read from the ledger (a resume); `truncated` when more changed than one read holds. */
async function changesSince(db: Db, topic: LiveTopic, cursor: number): Promise<{ changes: LiveChange[]; truncated: boolean }> {
  const from = new Date(Math.max(0, cursor - LOOKBACK_MS));
  const { changes, truncated } = await collectChanges(db, { runs: from, decided: from }, emptyMemory());
  return { changes: changes.filter((c) => c.topic === topic), truncated };
}

/**
 * The body of a feed. Refuses a user over the stream cap (429) before any byte
 * is sent. Starts with `ready` (the reader reloads its list once, which covers
 * whatever changed before it connected), then sends changes as they happen.
 */
export function liveFeedStream(
  db: Db,
  args: { topic: LiveTopic; since: number | null; userId: string; signal: AbortSignal; /** Who opened it, checked every `recheckMs` (stream-access.ts). */ caller?: StreamCaller; recheckMs?: number },
): ReadableStream<Uint8Array> {
  const { topic, signal } = args;
  const slot = takeStreamSlot(args.userId);
  const encoder = new TextEncoder();
  let stop = () => slot.release();

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let closed = false;
        let dropped = false;
        // Changes heard while the resume is read from the ledger wait here, so none falls between the two.
        let held: LiveChange[] | null = args.since === null ? null : [];
        const enqueue = (text: string) => controller.enqueue(encoder.encode(text));
        const deliver = (changes: LiveChange[]) => {
          for (const change of changes) {
            if (change.topic !== topic) continue;
            if ((controller.desiredSize ?? 1) <= 0) {
              dropped = true;
              continue;
            }
            if (dropped) {
              dropped = false;
              enqueue(`event: resync\ndata: {}\n\n`);
            }
            enqueue(changeFrame(change));
          }
        };
        const heartbeat = setInterval(() => {
          if ((controller.desiredSize ?? 1) > 0) enqueue(`: keep-alive\n\n`);
        }, FEED_HEARTBEAT_MS);
        const unsubscribe = liveChanges(db).subscribe((changes) => {
          if (closed) return;
          if (held) held.push(...changes);
          else deliver(changes);
        });
        const stopped = new AbortController();
        stop = () => {
          if (closed) return;
          closed = true;
          stopped.abort();
          unsubscribe();
          clearInterval(heartbeat);
          slot.release();
          try {
            controller.close();
          } catch {
            // the reader cancelled first
          }
        };
        signal.addEventListener("abort", stop, { once: true });
        if (signal.aborted) return stop();
        guardStream(args.caller, {
          stopped: stopped.signal,
          nudge: slot.signal,
          periodMs: args.recheckMs,
          end(access) {
            if (access) enqueue(endEventText(access));
            stop();
          },
        });
        // Tells EventSource how long to wait before it reconnects.
        enqueue(`retry: 1000\n\nevent: ready\ndata: ${JSON.stringify({ topic, cursor: Date.now() })}\n\n`);
        if (args.since !== null) {
          void changesSince(db, topic, args.since)
            .then(({ changes, truncated }) => {
              if (closed) return;
              if (truncated) enqueue(`event: resync\ndata: {}\n\n`);
              deliver(changes);
            })
            .catch(() => {
              // The ledger did not answer: the reader reloads its list instead of replaying.
              if (!closed) enqueue(`event: resync\ndata: {}\n\n`);
            })
            .finally(() => {
              const waiting = held ?? [];
              held = null;
              if (!closed) deliver(waiting);
            });
        }
      },
      cancel() {
        stop();
      },
    },
    { highWaterMark: FEED_BUFFER_FRAMES },
  );
}
