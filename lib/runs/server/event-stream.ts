import "server-only";
// A run's ledger events as Server-Sent Events (GET /api/runs/:runId/stream).
// The stream reads the ledger, never the workflow: the run goes on whether or
// not anyone listens, a slow reader holds only its own stream, and a reader that
// reconnects with Last-Event-ID (an event's seq) gets exactly what it missed.
// Between events it sends `token` frames: the text of a model call as it is
// generated (lib/runs/token-store.ts), without an id, so Last-Event-ID stays a
// ledger position. It ends with an `end` event once the run is final and every
// event of it was sent, or once its caller may no longer read (checked every
// few seconds whatever it sends: stream-access.ts), naming why.
import type { Db } from "../../db/prisma";
import { TERMINAL_STATUSES, type RunEvent } from "../../contract/types";
import { readEventPage, readRunSummary } from "../../run-ledger/read";
import { RunNotFound } from "../../engine/errors";
import { eventPhrase } from "../event-phrase";
import type { TokenFrame } from "../stream-events";
import { readTokenRows, type TokenRow } from "../token-store";
import { endEventText, type AccessEnd } from "../stream-end";
import { STREAMS_PER_USER, takeStreamSlot } from "./stream-limits";
import { guardStream, type StreamCaller } from "./stream-guard";
import { watchRun } from "./run-watch";

/** The longest an idle stream waits for the shared poller before it looks at the ledger itself, and how often it sends a comment so proxies keep it open. */
export const STREAM_POLL_MS = 2_000;
export const STREAM_HEARTBEAT_MS = 15_000;
/** The per-user cap, shared with the other live streams (lib/runs/server/stream-limits.ts). */
export { STREAMS_PER_USER };
export type { TokenFrame };
const PAGE = { limit: 500, maxBytes: 512 * 1024 };
/**
 * Bytes a stream may hold for a reader that does not read. Past it, the stream
 * stops reading the ledger until the reader catches up, then goes on from where
 * it was (the ledger is the buffer); token frames in between are dropped, as the
 * next one carries the text from where the reader is.
 */
export const STREAM_BUFFER_BYTES = 1024 * 1024;

/** One SSE frame: the event's seq is its id, its type the SSE event name; `phrase` says it in a sentence. */
export function sseFrame(event: RunEvent): string {
  return `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify({ ...event, phrase: eventPhrase(event) })}\n\n`;
}

/** Where a stream starts: after Last-Event-ID when the browser reconnects, else after `since` (0: from the start). */
export function resumeFrom(lastEventId: string | null, since: number): number {
  if (lastEventId !== null && /^\d{1,15}$/.test(lastEventId.trim())) return Number(lastEventId.trim());
  return since;
}

/**
 * What of a call's text this stream has sent, by iteration: the frames to send
 * for a changed row carry only the text past it (or all of it, from offset 0,
 * when the call was retried).
 */
export class TokenCursor {
  private readonly sent = new Map<number, { attempt: number; length: number; done: boolean }>();

  /** The frame for a row, or null when the reader has all of its text (and knows whether the call is done). */
  frameFor(row: TokenRow): TokenFrame | null {
    const seen = this.sent.get(row.iteration);
    const sameCall = seen !== undefined && seen.attempt === row.attempt && seen.length <= row.text.length;
    const offset = sameCall ? seen.length : 0;
    if (sameCall && offset === row.text.length && (seen.done || !row.done)) return null;
    this.sent.set(row.iteration, { attempt: row.attempt, length: row.text.length, done: row.done });
    return { type: "token", runId: row.runId, iteration: row.iteration, attempt: row.attempt, agentName: row.agentName, offset, delta: row.text.slice(offset), done: row.done };
  }
}

const tokenText = (frame: TokenFrame) => `event: token\ndata: ${JSON.stringify(frame)}\n\n`;

/**
 * The stream's body. Refuses an unknown run (404) and a user over the cap (429)
 * before any byte is sent, so both are ordinary API errors.
 */
export async function runEventStream(
  db: Db,
  args: {
    runId: string;
    since: number;
    userId: string;
    signal: AbortSignal;
    /** Who opened it, checked every `recheckMs` (stream-access.ts): a revoked key, a disabled user, a session signed out anywhere end the stream. */
    caller?: StreamCaller;
    recheckMs?: number;
    heartbeatMs?: number;
  },
): Promise<ReadableStream<Uint8Array>> {
  const { runId, signal } = args;
  const heartbeatMs = args.heartbeatMs ?? STREAM_HEARTBEAT_MS;
  if (!(await readRunSummary(db, runId))) throw new RunNotFound(runId);
  const slot = takeStreamSlot(args.userId);
  const stop = new AbortController();
  signal.addEventListener("abort", () => stop.abort(), { once: true });
  // Set when the caller's access ended: the loop stops and the stream says why.
  const ended: { access: AccessEnd | null } = { access: null };
  guardStream(args.caller, {
    stopped: stop.signal,
    nudge: slot.signal,
    periodMs: args.recheckMs,
    end(access) {
      ended.access = access;
      stop.abort();
    },
  });
  const encoder = new TextEncoder();

  // Woken by the shared poller (run-watch.ts) when the run has new events or token rows.
  let wakeUp: (() => void) | null = null;
  let since = args.since;
  let ledgerMoved = true;
  const pendingTokens: TokenRow[] = [];
  const unwatch = watchRun(db, runId, {
    wake(change) {
      if (change.lastEventSeq > since) ledgerMoved = true;
      // Only the latest row per call matters: it holds the whole text so far.
      for (const row of change.tokens) {
        const at = pendingTokens.findIndex((r) => r.iteration === row.iteration);
        if (at >= 0) pendingTokens.splice(at, 1);
        pendingTokens.push(row);
      }
      wakeUp?.();
    },
  });
  let readerWaiting: (() => void) | null = null;
  /** Waits for the poller's wake-up; true when `ms` passed without one. */
  const nextWake = (ms: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => finish(true), ms);
      const onAbort = () => finish(false);
      function finish(timedOut: boolean) {
        clearTimeout(timer);
        wakeUp = null;
        stop.signal.removeEventListener("abort", onAbort);
        resolve(timedOut);
      }
      wakeUp = () => finish(false);
      stop.signal.addEventListener("abort", onAbort, { once: true });
    });

  return new ReadableStream<Uint8Array>(
    {
      async start(controller) {
        let lastSent = Date.now();
        const tokens = new TokenCursor();
        const send = (text: string) => {
          controller.enqueue(encoder.encode(text));
          lastSent = Date.now();
        };
        // A reader that does not read: wait until it drains (or goes away) instead of buffering more.
        const roomForMore = async () => {
          while (!stop.signal.aborted && (controller.desiredSize ?? 1) <= 0) {
            await new Promise<void>((resolve) => {
              const done = () => {
                stop.signal.removeEventListener("abort", done);
                resolve();
              };
              readerWaiting = done;
              stop.signal.addEventListener("abort", done, { once: true });
            });
          }
        };
        try {
          // Tells EventSource how long to wait before it reconnects.
          send(`retry: 1000\n\n`);
          // Calls already generating when the stream opens (finished ones are in the ledger, or soon will be).
          for (const row of await readTokenRows(db, [runId], null)) if (!row.done) pendingTokens.push(row);
          while (!stop.signal.aborted) {
            await roomForMore();
            if (stop.signal.aborted) break;
            if (ledgerMoved) {
              ledgerMoved = false;
              const page = await readEventPage(db, runId, since, PAGE);
              for (const event of page.events) {
                // Nothing more once the caller may no longer read, not even the rest of a page already read.
                if (stop.signal.aborted) break;
                send(sseFrame(event));
                since = event.seq;
              }
              // More to read, or events were sent: read again at once (an empty page then says whether the run ended).
              if (page.hasMore || page.events.length > 0) ledgerMoved = true;
              if (page.hasMore) continue;
              if (page.events.length === 0) {
                const summary = await readRunSummary(db, runId);
                if (summary && TERMINAL_STATUSES.includes(summary.status) && summary.lastEventSeq <= since) {
                  send(endEventText({ reason: "run_finished", status: summary.status, lastEventSeq: summary.lastEventSeq }));
                  break;
                }
              }
            }
            if (stop.signal.aborted) break;
            // Token frames after the events written before them: a call's message never precedes its own text.
            for (const row of pendingTokens.splice(0)) {
              const frame = tokens.frameFor(row);
              if (frame && (controller.desiredSize ?? 1) > 0) send(tokenText(frame));
            }
            if (Date.now() - lastSent >= heartbeatMs) send(`: keep-alive\n\n`);
            // A quiet run is still re-read now and then: the poller may have failed a tick.
            if (!ledgerMoved && pendingTokens.length === 0 && (await nextWake(Math.min(STREAM_POLL_MS, heartbeatMs)))) ledgerMoved = true;
          }
          if (ended.access) send(endEventText(ended.access));
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
          // Also stops the caller's re-check (guardStream) of a stream that ended by itself.
          stop.abort();
          unwatch();
          slot.release();
        }
      },
      pull() {
        readerWaiting?.();
        readerWaiting = null;
      },
      cancel() {
        stop.abort();
        unwatch();
        slot.release();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: STREAM_BUFFER_BYTES }),
  );
}
