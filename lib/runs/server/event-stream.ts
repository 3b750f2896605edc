import "server-only";
// A run's ledger events as Server-Sent Events (GET /api/runs/:runId/stream).
// The stream reads the ledger, never the workflow: the run goes on whether or
// not anyone listens, a slow reader holds only its own loop, and a reader that
// reconnects with Last-Event-ID (an event's seq) gets exactly what it missed.
// It ends with an `end` event once the run is final and every event of it was sent.
import type { Db } from "../../db/prisma";
import { TERMINAL_STATUSES, type RunEvent } from "../../contract/types";
import { readEventPage, readRunSummary } from "../../run-ledger/read";
import { RunNotFound } from "../../engine/errors";
import { STREAMS_PER_USER, takeStreamSlot } from "./stream-limits";

/** How often an idle stream looks at the ledger again, and how often it sends a comment so proxies keep it open. */
export const STREAM_POLL_MS = 200;
export const STREAM_HEARTBEAT_MS = 15_000;
/** The per-user cap, shared with the other live streams (lib/runs/server/stream-limits.ts). */
export { STREAMS_PER_USER };
const PAGE = { limit: 500, maxBytes: 512 * 1024 };

/** One SSE frame: the event's seq is its id, its type the SSE event name. */
export function sseFrame(event: RunEvent): string {
  return `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** Where a stream starts: after Last-Event-ID when the browser reconnects, else after `since` (0: from the start). */
export function resumeFrom(lastEventId: string | null, since: number): number {
  if (lastEventId !== null && /^\d{1,15}$/.test(lastEventId.trim())) return Number(lastEventId.trim());
  return since;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * The stream's body. Refuses an unknown run (404) and a user over the cap (429)
 * before any byte is sent, so both are ordinary API errors.
 */
export async function runEventStream(db: Db, args: { runId: string; since: number; userId: string; signal: AbortSignal }): Promise<ReadableStream<Uint8Array>> {
  const { runId, userId, signal } = args;
  if (!(await readRunSummary(db, runId))) throw new RunNotFound(runId);
  const slot = takeStreamSlot(userId);
  const release = () => slot.release();
  const encoder = new TextEncoder();
  const stop = new AbortController();
  signal.addEventListener("abort", () => stop.abort(), { once: true });
  // Sign-out ends the user's streams.
  slot.signal.addEventListener("abort", () => stop.abort(), { once: true });

  return new ReadableStream<Uint8Array>({
    async start(controller) {
      let since = args.since;
      let lastSent = Date.now();
      const send = (text: string) => {
        controller.enqueue(encoder.encode(text));
        lastSent = Date.now();
      };
      try {
        // Tells EventSource how long to wait before it reconnects.
        send(`retry: 1000\n\n`);
        while (!stop.signal.aborted) {
          const page = await readEventPage(db, runId, since, PAGE);
          for (const event of page.events) {
            send(sseFrame(event));
            since = event.seq;
          }
          if (page.hasMore) continue;
          if (page.events.length === 0) {
            const summary = await readRunSummary(db, runId);
            if (summary && TERMINAL_STATUSES.includes(summary.status) && summary.lastEventSeq <= since) {
              send(`event: end\ndata: ${JSON.stringify({ status: summary.status, lastEventSeq: summary.lastEventSeq })}\n\n`);
              break;
            }
            if (Date.now() - lastSent >= STREAM_HEARTBEAT_MS) send(`: keep-alive\n\n`);
            await sleep(STREAM_POLL_MS, stop.signal);
          }
        }
        controller.close();
      } catch {
        // The reader went away (enqueue on a cancelled stream) or the ledger failed: end this stream only;
        // an EventSource reconnects with Last-Event-ID and loses nothing.
        try {
          controller.close();
        } catch {
          // already closed by the reader
        }
      } finally {
        release();
      }
    },
    cancel() {
      stop.abort();
      release();
    },
  });
}
