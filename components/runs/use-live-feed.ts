"use client";
// A live list's feed in the browser (GET /api/runs/feed, /api/approvals/feed):
// one EventSource per list, its changes handed to the page, and which path
// keeps the list current — "stream" while the feed is connected, "polling"
// while it is down (the page then polls at its old intervals), "ended" once the
// server ended it because the caller's access did (an `end` naming why: signed
// out, disabled, reset, expired). Then nothing updates the list any more —
// neither the feed nor the poll, which would be refused the same way — and the
// page shows why (StreamEndedAlert). EventSource reconnects by itself with
// Last-Event-ID; a feed refused outright (429 past the stream cap, 401) or
// ended without a reason is tried again after REOPEN_MS.
import { useCallback, useEffect, useEffectEvent, useRef, useState } from "react";
import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { accessEndOf, type AccessEnd } from "@/lib/runs/stream-end";

export type LivePath = "stream" | "polling" | "ended";

/** The path keeping a list current, and, once it is "ended", how the caller's access ended. */
export interface LiveFeed {
  path: LivePath;
  ended: AccessEnd | null;
}

const REOPEN_MS = 15_000;
const CHANGE_EVENTS = ["run", "approval", "pending"] as const;
export type FeedEvent = (typeof CHANGE_EVENTS)[number];

/**
 * Listens to `url` while mounted. `onChange` gets each change (event name and
 * parsed data); `onReload` is called when the list must be read again whole:
 * on every (re)connection, which covers what changed while disconnected, and
 * on `resync` (changes were skipped).
 */
export function useLiveFeed(url: string, handlers: { onChange: (event: FeedEvent, data: unknown) => void; onReload: () => void }): LiveFeed {
  const [path, setPath] = useState<LivePath>("polling");
  const [ended, setEnded] = useState<AccessEnd | null>(null);
  const onChange = useEffectEvent(handlers.onChange);
  const onReload = useEffectEvent(handlers.onReload);

  useEffect(() => {
    let source: EventSource | null = null;
    let reopen: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const open = () => {
      source = new EventSource(url);
      source.addEventListener("ready", () => {
        setPath("stream");
        onReload();
      });
      source.addEventListener("resync", () => onReload());
      // EventSource would reconnect at once after an end. The caller's access ended (signed out, disabled, reset):
      // stop for good and say why, since every reconnect would be refused. Any other end: wait, then try again.
      source.addEventListener("end", (message) => {
        source?.close();
        source = null;
        const accessEnded = accessEndOf((message as MessageEvent<string>).data);
        if (accessEnded) {
          stopped = true;
          setEnded(accessEnded);
          setPath("ended");
          return;
        }
        setPath("polling");
        if (!stopped) reopen = setTimeout(open, REOPEN_MS);
      });
      for (const name of CHANGE_EVENTS) {
        source.addEventListener(name, (message) => {
          try {
            onChange(name, JSON.parse((message as MessageEvent<string>).data) as unknown);
          } catch {
            onReload();
          }
        });
      }
      source.onerror = () => {
        setPath("polling");
        if (source?.readyState === EventSource.CLOSED && !stopped) {
          source = null;
          reopen = setTimeout(open, REOPEN_MS);
        }
      };
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(reopen);
      source?.close();
    };
  }, [url]);

  return { path, ended };
}

/**
 * Refetches the query under `queryKey` now, or right after the fetch in flight
 * ends: a burst of changes costs at most one fetch more, and a fetch is never
 * cancelled by the next change (a list that changes every 100 ms still loads).
 */
export function useCoalescedRefetch(queryKey: QueryKey): () => void {
  const queryClient = useQueryClient();
  const state = useRef({ inFlight: false, again: false });
  const key = JSON.stringify(queryKey);
  return useCallback(() => {
    const current = state.current;
    const run = () => {
      current.inFlight = true;
      current.again = false;
      void queryClient.refetchQueries({ queryKey: JSON.parse(key) as QueryKey, exact: true }).finally(() => {
        current.inFlight = false;
        if (current.again) run();
      });
    };
    if (current.inFlight) current.again = true;
    else run();
  }, [queryClient, key]);
}
