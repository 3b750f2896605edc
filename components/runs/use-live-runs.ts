"use client";
// The runs list, live: a changed run's status and pending count are patched
// into the page at once (the change says them), and the page is read again
// for what only a full read knows (new runs, usage, Temporal's status).
import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import type { RunChange } from "@/lib/runs/live-feed";
import type { RunListPage, RunListRow } from "@/lib/runs/schemas";
import { useCoalescedRefetch, useLiveFeed, type LivePath } from "./use-live-feed";

function patchRows(rows: RunListRow[], change: RunChange): RunListRow[] {
  return rows.map((row) =>
    row.runId === change.runId
      ? { ...row, status: change.status, pendingApprovals: change.pendingApprovals, endedAt: change.endedAt, subRuns: patchRows(row.subRuns, change) }
      : row.subRuns.length
        ? { ...row, subRuns: patchRows(row.subRuns, change) }
        : row,
  );
}

/** Keeps the runs list under `queryKey` current from GET /api/runs/feed; returns the path in use (poll only when "polling"). */
export function useLiveRunsList(queryKey: QueryKey): LivePath {
  const queryClient = useQueryClient();
  const reload = useCoalescedRefetch(queryKey);
  return useLiveFeed("/api/runs/feed", {
    onReload: reload,
    onChange: (event, data) => {
      if (event !== "run") return;
      queryClient.setQueryData<RunListPage>(queryKey, (page) => (page ? { ...page, rows: patchRows(page.rows, data as RunChange) } : page));
      reload();
    },
  });
}
