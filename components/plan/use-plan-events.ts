"use client";
// The plan events of a run, kept whole: those read with the page, then those
// the run page's live tail brings. The tail keeps only its most recent events,
// so when one poll brought more than it keeps (a wide plan finishing at once),
// the missed stretch is read once from the events API; nothing is asked per node.
import { useEffect, useState } from "react";
import type { RunEvent } from "@/lib/contract/types";
import { getJson } from "@/lib/http/client";
import { followTail, mergeStretch, type KnownPlanEvents, type PlanEvent } from "@/lib/runs/plan-view";

/** GET /api/runs/:runId/events answers a page of the run ledger. */
interface EventPage {
  events: RunEvent[];
  nextSince: number;
  hasMore: boolean;
}

async function readStretch(runId: string, since: number, until: number): Promise<RunEvent[]> {
  const read: RunEvent[] = [];
  for (let cursor = since; cursor < until; ) {
    const page = await getJson<EventPage>(`/api/runs/${encodeURIComponent(runId)}/events?since=${cursor}&limit=2000`);
    read.push(...page.events.filter((e) => e.seq <= until));
    if (!page.hasMore || page.nextSince <= cursor) break;
    cursor = page.nextSince;
  }
  return read;
}

export function usePlanEvents(runId: string, initial: readonly PlanEvent[], initialThrough: number, tailEvents: readonly RunEvent[]): readonly PlanEvent[] {
  const [known, setKnown] = useState<KnownPlanEvents>({ events: initial, through: initialThrough });
  const [seenTail, setSeenTail] = useState<readonly RunEvent[] | null>(null);
  const step = followTail(known, tailEvents);
  // A window that follows on from what is known is merged while rendering (React's "adjust state when a prop changes").
  if (tailEvents !== seenTail) {
    setSeenTail(tailEvents);
    if (step.kind === "merge") setKnown(step.next);
  }
  const gapSince = step.kind === "gap" ? step.since : null;
  const gapUntil = step.kind === "gap" ? step.until : null;
  useEffect(() => {
    if (gapSince === null || gapUntil === null) return;
    let cancelled = false;
    void readStretch(runId, gapSince, gapUntil).then(
      (stretch) => {
        if (!cancelled) setKnown((k) => mergeStretch(k, stretch, tailEvents));
      },
      // The stretch is read again when the next poll changes the tail.
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [runId, gapSince, gapUntil, tailEvents]);
  return known.events;
}
