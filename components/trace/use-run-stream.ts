"use client";
// One EventSource per run page (GET /api/runs/:runId/stream): it says when the
// ledger moved (the page then reads what changed, at once rather than on the
// next poll) and carries the text of the model call being generated. While it
// is down, the page polls as before; the browser reconnects by itself with
// Last-Event-ID, so nothing is missed.
import { useEffect, useState } from "react";
import { applyToken, RUN_EVENT_TYPES, type LiveCall, type TokenFrame } from "@/lib/runs/stream-events";
import { accessEndOf, type AccessEnd } from "@/lib/runs/stream-end";

export interface RunStreamState {
  /** The stream is open: polling is not needed. */
  connected: boolean;
  /** The last ledger seq the stream announced. */
  seq: number;
  /** The model call whose text is arriving (the latest one), null before any. */
  liveCall: LiveCall | null;
  /** The run is final and every event was sent. */
  ended: boolean;
  /** The stream ended because the caller's access did (signed out, disabled, reset): the page stops reading and says why. */
  accessEnded: AccessEnd | null;
}

export function useRunStream(runId: string, fromSeq: number, enabled: boolean): RunStreamState {
  const [state, setState] = useState<RunStreamState>({ connected: false, seq: fromSeq, liveCall: null, ended: false, accessEnded: null });
  useEffect(() => {
    if (!enabled || typeof EventSource === "undefined") return;
    // Events the page already has are not sent again: the stream starts after them.
    const source = new EventSource(`/api/runs/${encodeURIComponent(runId)}/stream?since=${fromSeq}`);
    const onLedger = (message: MessageEvent<string>) => {
      const seq = Number(message.lastEventId);
      if (Number.isFinite(seq)) setState((s) => (seq > s.seq ? { ...s, connected: true, seq } : s));
    };
    const onToken = (message: MessageEvent<string>) => {
      const frame = JSON.parse(message.data) as TokenFrame;
      setState((s) => (s.liveCall && frame.iteration < s.liveCall.iteration ? s : { ...s, connected: true, liveCall: applyToken(s.liveCall, frame) }));
    };
    const onEnd = (message: MessageEvent<string>) => {
      source.close();
      // Ended because the caller may no longer read (signed out, disabled, reset): not a finished run, and not
      // something to poll for either (every read would be refused): the page stops and says why.
      const accessEnded = accessEndOf(message.data);
      setState((s) => ({ ...s, connected: false, ended: accessEnded === null, accessEnded }));
    };
    source.onopen = () => setState((s) => ({ ...s, connected: true }));
    // EventSource retries by itself; until then the page polls.
    // (A ledger event named "error" arrives as a MessageEvent; the connection's own errors are plain Events.)
    source.onerror = (event) => {
      if (!(event instanceof MessageEvent)) setState((s) => ({ ...s, connected: false }));
    };
    for (const type of RUN_EVENT_TYPES) source.addEventListener(type, onLedger);
    source.addEventListener("token", onToken);
    source.addEventListener("end", onEnd);
    return () => source.close();
    // fromSeq is where the stream starts when the page opens it, not a reason to reopen it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runId, enabled]);
  return state;
}
