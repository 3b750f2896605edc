"use client";
// The runs list: filters and order live in the URL, the page stays current from
// the runs feed, sub-runs fold under their parent. A new query (a saved view,
// a filter, a sort) shows "Loading runs…" until its answer arrives, never the
// previous query's rows as if they were its results.
import { useState } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/alert";
import { EmptyState } from "@/components/ui/empty-state";
import { runsListRefetchMs, useLiveRunsList } from "@/components/runs/use-live-runs";
import { StreamEndedAlert } from "@/components/runs/stream-ended";
import { IndexLagNote } from "@/components/runs/derived-lag";
import { RUN_SORTS, type RunListPage, type RunSort } from "@/lib/runs/schemas";
import { nextSort } from "@/lib/runs/run-sort";
import { normalizeRangeQuery } from "@/lib/runs/time-range";
import { getJson } from "@/lib/http/client";
import { plural } from "@/lib/text/plural";
import { SavedViews } from "@/components/runs/search-views";
import { AddToDatasetDialog } from "@/components/datasets/add-to-dataset-dialog";
import { RunsFilters, type Filter } from "@/components/runs/runs-filters";
import { RunsTable, type SortState } from "@/components/runs/runs-table";
import { ColumnPicker } from "@/components/runs/column-picker";
import { useRunColumns } from "@/components/runs/use-run-columns";
import { visibleColumns } from "@/components/runs/run-columns";
import { filterWords, hasFilters, withoutFilters } from "@/components/runs/filter-words";

/** The URL's sort, when it is one the list knows (the API refuses others). */
function sortOf(params: URLSearchParams): SortState {
  const sort = params.get("sort");
  const order = params.get("order");
  return {
    ...(sort && (RUN_SORTS as readonly string[]).includes(sort) ? { sort: sort as RunSort } : {}),
    ...(order === "asc" || order === "desc" ? { order } : {}),
  };
}

export function RunsClient() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  // Top-level runs chosen for "Add to dataset" (kept across pages and filters until cleared).
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const choose = (runId: string, on: boolean) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (on) next.add(runId);
      else next.delete(runId);
      return next;
    });
  const query = params.toString();
  // The runs feed keeps the page current; it polls at the old intervals only while the feed is down.
  const live = useLiveRunsList(["runs", query]);
  // No placeholder data: under a new key the old rows would stand in as if they answered it.
  const runs = useQuery({
    queryKey: ["runs", query],
    queryFn: () => getJson<RunListPage>(`/api/runs/list?${normalizeRangeQuery(params)}`, { what: "runs" }),
    refetchInterval: (q) => runsListRefetchMs(live.path, q.state.data),
  });
  const columnChoices = useRunColumns();
  const replace = (next: URLSearchParams) => router.replace(next.size ? `${pathname}?${next.toString()}` : pathname);
  const set = (key: Filter, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== "page") next.delete("page");
    replace(next);
  };
  const sort = sortOf(params);
  const onSort = (column: RunSort) => {
    const chosenSort = nextSort(sort, column);
    const next = new URLSearchParams(params);
    next.delete("page");
    // Newest first is the list without a sort in its URL.
    if (chosenSort.sort === "started" && chosenSort.order === "desc") {
      next.delete("sort");
      next.delete("order");
    } else {
      next.set("sort", chosenSort.sort);
      next.set("order", chosenSort.order);
    }
    replace(next);
  };
  const data = runs.data;
  const filtered = hasFilters(params);
  const page = data?.page ?? 1;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const columns = visibleColumns(columnChoices.choices, { anyRouted: data?.rows.some((r) => r.routedTo !== null || r.error?.reason === "routing_exhausted") ?? false, anyScored: data?.rows.some((r) => r.score) ?? false, filters: new Set(params.keys()) });
  const emptyResult =
    data && data.rows.length === 0 && filtered ? (
      <div className="space-y-3" data-testid="no-match">
        <p>
          No runs match <span className="font-medium text-zinc-800">{filterWords(params).join(" · ")}</span>.
        </p>
        <Button variant="secondary" onClick={() => replace(withoutFilters(params))}>
          Clear filters
        </Button>
      </div>
    ) : data && data.rows.length === 0 ? (
      data.total > 0 ? `Page ${page} is past the last page.` : "No runs to list."
    ) : null;
  const loading = runs.isPending ? (
    <span role="status" data-testid="runs-loading">
      Loading runs…
    </span>
  ) : null;
  return (
    <div className="space-y-4">
      <SavedViews params={params} />
      <RunsFilters params={params} set={set} />
      {data && data.total === 0 && !filtered ? (
        <EmptyState title="No runs yet">Start one with “New run” here, or from an agent in the designer.</EmptyState>
      ) : null}
      {runs.error ? <Alert tone="error">{runs.error.message}</Alert> : null}
      {data?.temporalNote ? <Alert tone="info">{data.temporalNote}</Alert> : null}
      {data?.matchNote ? <Alert tone="info">{data.matchNote}</Alert> : null}
      {data?.sortNote ? <Alert tone="info">{data.sortNote}</Alert> : null}
      <IndexLagNote lag={data?.indexBehind} />
      <div className="flex flex-wrap items-center gap-3 text-sm">
        {chosen.size ? (
          <div className="flex items-center gap-3" data-testid="run-selection">
            <span>{plural(chosen.size, "run")} selected</span>
            <AddToDatasetDialog runIds={[...chosen]} />
            <Button variant="ghost" onClick={() => setChosen(new Set())}>
              Clear
            </Button>
          </div>
        ) : null}
        <div className="ml-auto">
          <ColumnPicker shown={columns} onChoose={columnChoices.choose} onReset={columnChoices.reset} />
        </div>
      </div>
      <StreamEndedAlert end={live.ended} />
      <div data-testid="runs-list" data-live={live.path}>
        <RunsTable rows={data?.rows ?? []} columns={columns} sort={sort} onSort={onSort} chosen={chosen} onChoose={choose} busy={runs.isFetching} body={loading ?? emptyResult ?? undefined} />
      </div>
      <div className="flex items-center justify-between text-sm text-zinc-600">
        <span>{data ? plural(data.total, "run") : "Loading…"}</span>
        <span className="flex items-center gap-2">
          <Button variant="secondary" disabled={page <= 1} onClick={() => set("page", String(page - 1))}>
            Previous
          </Button>
          <span>
            page {page} of {pages}
          </span>
          <Button variant="secondary" disabled={page >= pages} onClick={() => set("page", String(page + 1))}>
            Next
          </Button>
        </span>
      </div>
    </div>
  );
}
