"use client";
// The run page's live state: every span once (first load), then the events
// after the last sequence number seen, merging only what changed: read when the
// run stream (use-run-stream.ts) says the ledger moved, or every `intervalMs`
// while the stream is down. Reading stops when the run is in a terminal state
// and the tail is drained; nothing the page already has is fetched again.
import { useCallback, useEffect, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { RunEvent } from "@/lib/contract/types";
import { isTerminal, type RunHeaderData, type RunTail, type TraceSpanView } from "@/lib/runs/schemas";
import { spansFromRows, type SpanRowPage } from "@/lib/runs/span-rows";
import { getJson } from "@/lib/http/client";
import { isMarkerEvent, type MarkerEvent } from "@/lib/runs/orchestration-view";
import { useRunStream } from "./use-run-stream";

/** How often the header is read again while the run stream is open (see the tail query below). */
const HEADER_REFRESH_WHILE_STREAMING_MS = 3_000;

const FIRST_PAGE = 2000;
// Each page costs the server a pass over the run's spans (sorted, then offset), so later pages are as large as the route allows.
const LATER_PAGES = 50_000;
const PAGES_AHEAD = 3;
// Re-deriving the timeline of 200,000 spans (tree, rows, time scale) takes about half a second:
// while later pages arrive, the timeline is redrawn at most this often; a progress count updates per page.
const PUBLISH_EVERY_MS = 1500;

/** Recent events kept for the activity feed (the ledger holds them all). */
const RECENT_EVENTS = 300;

/**
 * The pages after the first, in order, with up to `PAGES_AHEAD` requests in
 * flight: the server works on the next page while this one is parsed and
 * merged. Merging stays in order, so the list stays in start order.
 */
export function* laterPages<T>(total: number, from: number, fetchPage: (offset: number) => Promise<T>, pageSize = LATER_PAGES, ahead = PAGES_AHEAD): Generator<Promise<T>> {
  const offsets: number[] = [];
  for (let offset = from; offset < total; offset += pageSize) offsets.push(offset);
  const requested: Promise<T>[] = [];
  const request = () => {
    const offset = offsets[requested.length];
    if (offset === undefined) return;
    const page = fetchPage(offset);
    // A page that fails while an earlier one is awaited is reported when its turn comes.
    page.catch(() => undefined);
    requested.push(page);
  };
  for (let i = 0; i < ahead; i++) request();
  for (let i = 0; i < offsets.length; i++) {
    const page = requested[i];
    if (!page) return;
    yield page;
    request();
  }
}

export interface SpanStore {
  list: TraceSpanView[];
  position: Map<string, number>;
}

/** Adds new spans and replaces changed ones in place; returns whether anything changed. */
export function mergeSpans(store: SpanStore, incoming: readonly TraceSpanView[]): boolean {
  let changed = false;
  for (const span of incoming) {
    const at = store.position.get(span.id);
    if (at === undefined) {
      store.position.set(span.id, store.list.length);
      store.list.push(span);
      changed = true;
    } else {
      const old = store.list[at];
      if (!old || old.status !== span.status || old.endMs !== span.endMs || old.attempts !== span.attempts) {
        store.list[at] = span;
        changed = true;
      }
    }
  }
  return changed;
}

export function useRunTail(runId: string, initialHeader: RunHeaderData, intervalMs: number) {
  // The span list is mutated in place (a 200,000-span trace is not copied per poll);
  // `spans.version` tells React it changed. Refs are touched only inside query functions.
  const store = useRef<SpanStore>({ list: [], position: new Map() });
  const since = useRef(initialHeader.lastEventSeq);
  const drained = useRef(false);
  const [spans, setSpans] = useState<{ list: TraceSpanView[]; version: number }>({ list: [], version: 0 });
  const [loaded, setLoaded] = useState(0);
  const [header, setHeader] = useState(initialHeader);
  const [events, setEvents] = useState<RunEvent[]>([]);
  // Marker events (handoffs, routing decisions, …) are few and all kept: the conversation places its dividers by them.
  const [markers, setMarkers] = useState<MarkerEvent[]>([]);
  const [seq, setSeq] = useState(initialHeader.lastEventSeq);

  // The first page renders at once; later pages (large traces) arrive in the background.
  const initial = useQuery({
    queryKey: ["run-spans", runId],
    staleTime: Infinity,
    queryFn: async () => {
      store.current = { list: [], position: new Map() };
      const url = (offset: number, limit: number) => `/api/runs/${encodeURIComponent(runId)}/spans?offset=${offset}&limit=${limit}`;
      const first = await getJson<SpanRowPage>(url(0, FIRST_PAGE));
      mergeSpans(store.current, spansFromRows(first));
      setSpans((prev) => ({ list: store.current.list, version: prev.version + 1 }));
      let offset = first.nextOffset;
      if (offset === null) return store.current.list.length;
      let last = performance.now();
      const publish = (force: boolean) => {
        setLoaded(store.current.list.length);
        if (!force && performance.now() - last < PUBLISH_EVERY_MS) return;
        last = performance.now();
        setSpans((prev) => ({ list: store.current.list, version: prev.version + 1 }));
      };
      for (const page of laterPages(first.total ?? 0, offset, (o) => getJson<SpanRowPage>(url(o, LATER_PAGES)))) {
        const body = await page;
        mergeSpans(store.current, spansFromRows(body));
        publish(false);
        offset = body.nextOffset;
      }
      // Spans written after the count (a run still working) are read one page after another.
      while (offset !== null) {
        const body = await getJson<SpanRowPage>(url(offset, LATER_PAGES));
        mergeSpans(store.current, spansFromRows(body));
        publish(false);
        offset = body.nextOffset;
      }
      publish(true);
      return store.current.list.length;
    },
  });

  const stream = useRunStream(runId, initialHeader.lastEventSeq, !isTerminal(initialHeader.status));
  const tail = useQuery({
    queryKey: ["run-tail", runId],
    enabled: initial.isSuccess,
    // Once it ended because the caller's access did, no poll (it would be refused). While the stream is open a
    // slow one still: the header carries facts the run's own stream does not send (a plan node's sub-run that
    // now waits for a decision), and a page opened before they happened showed them only after the stream closed.
    refetchInterval: (query) => (query.state.data?.drained || stream.accessEnded ? false : stream.connected ? Math.max(intervalMs, HEADER_REFRESH_WHILE_STREAMING_MS) : intervalMs),
    refetchIntervalInBackground: false,
    queryFn: async () => {
      const page = await getJson<RunTail>(`/api/runs/${encodeURIComponent(runId)}/tail?since=${since.current}`);
      since.current = page.nextSince;
      if (mergeSpans(store.current, page.spans)) setSpans((prev) => ({ list: store.current.list, version: prev.version + 1 }));
      if (page.events.length) setEvents((prev) => [...prev, ...page.events].slice(-RECENT_EVENTS));
      const newMarkers = page.events.filter(isMarkerEvent);
      if (newMarkers.length) setMarkers((prev) => [...prev, ...newMarkers]);
      setHeader(page.header);
      setSeq(page.nextSince);
      drained.current = isTerminal(page.header.status) && !page.hasMore && page.header.lastEventSeq <= page.nextSince;
      return { nextSince: page.nextSince, hasMore: page.hasMore, drained: drained.current };
    },
  });
  const { refetch } = tail;
  // A backlog is read page after page at once rather than one page per interval.
  const backlog = tail.data?.hasMore === true;
  const nextSince = tail.data?.nextSince;
  useEffect(() => {
    if (backlog) void refetch();
  }, [backlog, nextSince, refetch]);
  // The stream announced events the page has not read (or the end): read them now, one read at a time.
  const fetching = tail.isFetching;
  const behind = nextSince !== undefined && (stream.seq > nextSince || (stream.ended && !tail.data?.drained));
  useEffect(() => {
    if (behind && !fetching) void refetch({ cancelRefetch: false });
  }, [behind, fetching, stream.seq, refetch]);

  const refresh = useCallback(() => void refetch(), [refetch]);

  return {
    spans: spans.list,
    spanVersion: spans.version,
    header,
    events,
    markers,
    loading: spans.version === 0,
    loaded,
    complete: initial.isSuccess,
    error: initial.error ?? tail.error,
    refresh,
    since: seq,
    /** The run stream is open (else the page polls), and the model call whose text is arriving. */
    streaming: stream.connected,
    liveCall: stream.liveCall,
    /** The stream ended because the caller's access did: the page no longer updates, and says why. */
    accessEnded: stream.accessEnded,
  };
}
