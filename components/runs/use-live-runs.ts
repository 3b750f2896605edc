"use client";
// The runs list, live: a changed run's status and pending count are patched
// into the page at once (the change says them), and the page is read again
// for what only a full read knows (new runs, usage, Temporal's status) — at
// once for a run just started or a status that moved; a run that only made
// progress (a new ledger event, same status) or is off this page is read again
// at most every PROGRESS_RELOAD_MS, as the old poll did: a hundred busy runs
// must not turn every open list into a reload loop.
import { useEffect, useRef } from "react";
import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import type { RunChange, RunStart } from "@/lib/runs/live-feed";
import { isTerminal, type RunListPage, type RunListRow } from "@/lib/runs/schemas";
import { CATCH_UP_REFETCH_MS } from "./derived-lag";
import { useCoalescedRefetch, useLiveFeed, type LiveFeed, type LivePath } from "./use-live-feed";

const PROGRESS_RELOAD_MS = 2_000;
/** While the feed is down: a page with working runs is read again this often, a settled one less often (the old poll's intervals). */
const POLL_WORKING_MS = 2_000;
const POLL_SETTLED_MS = 15_000;

/**
 * How long until the runs list reads again (TanStack Query's refetchInterval; false: not on a timer).
 * Every second while the answer says its search index is behind the ledger: the feed tells of runs
 * that changed, not of the index catching up, so only a read finds what the index took in since.
 * Otherwise the feed keeps the page current, and the old poll stands in while it is down.
 */
export function runsListRefetchMs(live: LivePath, page: RunListPage | undefined): number | false {
  // The caller's access ended: every read would be refused; the page says why instead.
  if (live === "ended") return false;
  if (page?.indexBehind) return CATCH_UP_REFETCH_MS;
  if (live === "stream") return false;
  return page?.rows.some((r) => !isTerminal(r.status) || r.subRuns.some((s) => !isTerminal(s.status))) ? POLL_WORKING_MS : POLL_SETTLED_MS;
}

function patchRows(rows: RunListRow[], change: RunChange): RunListRow[] {
  return rows.map((row) =>
    row.runId === change.runId
      ? { ...row, status: change.status, pendingApprovals: change.pendingApprovals, endedAt: change.endedAt, subRuns: patchRows(row.subRuns, change) }
      : row.subRuns.length
        ? { ...row, subRuns: patchRows(row.subRuns, change) }
        : row,
  );
}

function findRow(rows: RunListRow[], runId: string): RunListRow | undefined {
  for (const row of rows) {
    if (row.runId === runId) return row;
    const sub = findRow(row.subRuns, runId);
    if (sub) return sub;
  }
  return undefined;
}

const NO_USAGE = { tokens: { inputTokens: 0, outputTokens: 0 }, cost: 0 };

/** A just-started run's row as the list would read it (no version, usage or Temporal status yet: the reload brings them). */
function startedRow(change: RunChange, started: RunStart): RunListRow {
  return {
    runId: change.runId,
    parentRunId: null,
    ...started,
    version: null,
    variantOf: null,
    status: change.status,
    temporalStatus: null,
    pendingApprovals: change.pendingApprovals,
    error: null,
    routedTo: null,
    planOutcome: null,
    endedAt: change.endedAt,
    self: NO_USAGE,
    total: NO_USAGE,
    subRuns: [],
  };
}

/** Whether the list's query (its URL's search string) is the first page of every run: a new run belongs at its top. */
function isFirstUnfilteredPage(queryKey: QueryKey): boolean {
  const params = new URLSearchParams(typeof queryKey[1] === "string" ? queryKey[1] : "");
  return [...params.keys()].every((key) => key === "page") && (params.get("page") ?? "1") === "1";
}

/**
 * Keeps the runs list under `queryKey` current from GET /api/runs/feed; returns the path in use (poll only when
 * "polling") and, once the feed ended because the caller's access did, why.
 */
export function useLiveRunsList(queryKey: QueryKey): LiveFeed {
  const queryClient = useQueryClient();
  const reload = useCoalescedRefetch(queryKey);
  const progress = useRef<{ timer: ReturnType<typeof setTimeout> | null; last: number }>({ timer: null, last: 0 });
  useEffect(() => {
    const state = progress.current;
    return () => {
      if (state.timer) clearTimeout(state.timer);
    };
  }, []);
  const reloadForProgress = () => {
    const state = progress.current;
    if (state.timer) return;
    const wait = Math.max(0, state.last + PROGRESS_RELOAD_MS - Date.now());
    state.timer = setTimeout(() => {
      state.timer = null;
      state.last = Date.now();
      reload();
    }, wait);
  };
  return useLiveFeed("/api/runs/feed", {
    onReload: reload,
    onChange: (event, data) => {
      if (event !== "run") return;
      const change = data as RunChange;
      const page = queryClient.getQueryData<RunListPage>(queryKey);
      const shown = page ? findRow(page.rows, change.runId) : undefined;
      if (!shown) {
        // A run just started (its row has no event yet) belongs at the top of the list now; others off this page can wait.
        if (change.parentRunId === null && change.lastEventSeq === 0) {
          // Shown at once on the first page of every run; the reload confirms it (and places it anywhere else).
          if (page && change.started && isFirstUnfilteredPage(queryKey)) {
            queryClient.setQueryData<RunListPage>(queryKey, { ...page, rows: [startedRow(change, change.started), ...page.rows].slice(0, page.pageSize), total: page.total + 1 });
          }
          reload();
        } else reloadForProgress();
        return;
      }
      if (shown.status === change.status && shown.pendingApprovals === change.pendingApprovals && shown.endedAt === change.endedAt) {
        reloadForProgress();
        return;
      }
      if (page) queryClient.setQueryData<RunListPage>(queryKey, { ...page, rows: patchRows(page.rows, change) });
      reload();
    },
  });
}
