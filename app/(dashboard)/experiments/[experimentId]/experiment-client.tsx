"use client";
// An experiment's page: progress (polled while it runs) with cancel for
// builders, the summary per target, and the compare table with its filters
// (regressions / improvements, tag, which scorer decides) and CSV export.
import { useInBrowser } from "@/components/ui/date-time";
import { useMemo, useState, useTransition } from "react";
import Link from "@/components/ui/link";
import { useQuery } from "@tanstack/react-query";
import { getJson } from "@/lib/http/client";
import { formatDateTime } from "@/lib/format/figures";
import type { ExperimentDetail } from "@/lib/experiments/schemas";
import { scorerName } from "@/lib/experiments/scoring/types";
import { cancelExperimentAction } from "@/lib/actions/cancel-experiment";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { ExperimentProgress } from "@/components/experiments/list-experiments";
import { buildRows, filterRows, scorerNamesOf, summarize, type RowFilter, type ScorerFocus } from "@/components/experiments/compare-model";
import { readAllResults, VIEW_RESULTS_CAP, type LoadedExperiment } from "@/components/experiments/compare-load";
import { CompareTable } from "@/components/experiments/compare-table";
import { SummaryTable } from "@/components/experiments/summary-table";

const STATUS_TONES = { running: "info", completed: "success", cancelled: "warning", failed: "danger" } as const;
const ROWS_PER_PAGE = 100;

function pageUrl(experimentId: string, cursor: number | undefined, limit: number): string {
  const query = new URLSearchParams({ limit: String(limit) });
  if (cursor !== undefined) query.set("cursor", String(cursor));
  return `/api/experiments/${encodeURIComponent(experimentId)}?${query.toString()}`;
}

export function ExperimentClient({ initial, mayCancel }: { initial: LoadedExperiment; mayCancel: boolean }) {
  const experimentId = initial.experiment.id;
  const query = useQuery({
    queryKey: ["experiment", experimentId],
    queryFn: ({ signal }) => readAllResults((cursor, limit) => getJson<ExperimentDetail>(pageUrl(experimentId, cursor, limit), { what: "the experiment", signal })),
    initialData: initial,
    // Poll while running; a big experiment is re-read less often (every page is read each time).
    refetchInterval: (q) => (q.state.data?.experiment.status === "running" ? (initial.experiment.progress.total > 2_000 ? 5_000 : 2_000) : false),
  });
  const { experiment, results, truncated } = query.data;

  const [filter, setFilter] = useState<RowFilter>("all");
  const [tag, setTag] = useState<string | null>(null);
  const [focus, setFocus] = useState<ScorerFocus>("all");
  const [page, setPage] = useState(0);
  const [cancelError, setCancelError] = useState<string | null>(null);
  const [cancelling, startCancel] = useTransition();

  const scorerNames = useMemo(() => scorerNamesOf(experiment.scorers.map(scorerName), results), [experiment.scorers, results]);
  const rows = useMemo(() => buildRows(experiment, results, focus), [experiment, results, focus]);
  const summaries = useMemo(() => summarize(experiment, results, buildRows(experiment, results, "all"), scorerNames), [experiment, results, scorerNames]);
  const tags = useMemo(() => [...new Set(rows.flatMap((row) => row.tags))].sort(), [rows]);
  const shown = useMemo(() => filterRows(rows, filter, tag), [rows, filter, tag]);
  const pages = Math.max(1, Math.ceil(shown.length / ROWS_PER_PAGE));
  const currentPage = Math.min(page, pages - 1);
  const regressions = rows.filter((row) => row.regressed).length;
  const improvements = rows.filter((row) => row.improved).length;

  function cancel() {
    setCancelError(null);
    startCancel(async () => {
      const result = await cancelExperimentAction({ experimentId });
      if (!result.ok) setCancelError(result.error.message);
      await query.refetch();
    });
  }

  const select = "rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm";
  // The start is written in the reader's zone, known only in the browser (a server-written one differs at hydration).
  const inBrowser = useInBrowser();
  return (
    <>
      <PageHeader
        title={experiment.name}
        description={`${experiment.dataset.name} v${experiment.dataset.version} against ${experiment.targets.map((t) => t.label).join(", ")} · started ${inBrowser ? formatDateTime(experiment.createdAt) : "…"}${experiment.createdBy ? ` by ${experiment.createdBy}` : ""}`}
      />
      <div className="space-y-6">
        {cancelError ? <Alert tone="error">{cancelError}</Alert> : null}
        {query.error ? <Alert tone="error">{query.error.message}</Alert> : null}
        <Card>
          <div className="flex flex-wrap items-center gap-4 px-5 py-4">
            <Badge tone={STATUS_TONES[experiment.status]}>
              <span data-testid="experiment-status">{experiment.status}</span>
            </Badge>
            <ExperimentProgress experiment={experiment} />
            <div className="ml-auto flex items-center gap-2">
              {mayCancel && experiment.status === "running" ? (
                <Button variant="danger" onClick={cancel} disabled={cancelling}>
                  {cancelling ? "Cancelling…" : "Cancel experiment"}
                </Button>
              ) : null}
              <a href={`/api/experiments/${encodeURIComponent(experimentId)}/export`} download className="rounded-md px-3 py-2 text-sm font-medium text-zinc-900 ring-1 ring-inset ring-zinc-300 hover:bg-zinc-50">
                Export CSV
              </a>
              <Link href="/experiments" className="text-sm text-indigo-700 hover:underline">
                All experiments
              </Link>
            </div>
          </div>
        </Card>

        <Card>
          <CardHeader title="Summary" description="Mean score and pass rate per scorer with 95 % confidence intervals (t for means, Wilson for pass rates), and Δ: the mean change from the first target (the baseline) over the same items, paired." />
          <SummaryTable summaries={summaries} thresholds={experiment.thresholds} />
        </Card>

        <Card>
          <CardHeader
            title="Items"
            description={`${rows.length} item(s) · ${regressions} regressed · ${improvements} improved against ${experiment.targets[0]?.label ?? "the baseline"}${truncated ? ` · showing the first ${VIEW_RESULTS_CAP.toLocaleString("en-US")} results (export CSV for all)` : ""}`}
          />
          <div className="flex flex-wrap items-end gap-4 border-b border-zinc-100 px-5 py-3 text-sm">
            <label className="flex flex-col gap-1">
              <span className="text-xs font-medium text-zinc-600">Show</span>
              <select className={select} value={filter} onChange={(e) => { setFilter(e.target.value as RowFilter); setPage(0); }}>
                <option value="all">All items</option>
                <option value="regressions">{`Only regressions (${regressions})`}</option>
                <option value="improvements">{`Only improvements (${improvements})`}</option>
              </select>
            </label>
            <label className="flex flex-col gap-1">
              <span className="text-xs font-medium text-zinc-600">Tag</span>
              <select className={select} value={tag ?? ""} onChange={(e) => { setTag(e.target.value || null); setPage(0); }}>
                <option value="">Any tag</option>
                {tags.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex flex-col gap-1">
              <span className="text-xs font-medium text-zinc-600">Scorer</span>
              <select className={select} value={focus} onChange={(e) => { setFocus(e.target.value); setPage(0); }}>
                <option value="all">All scorers (mean)</option>
                {scorerNames.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <CompareTable rows={shown.slice(currentPage * ROWS_PER_PAGE, (currentPage + 1) * ROWS_PER_PAGE)} targets={experiment.targets} />
          {pages > 1 ? (
            <nav className="flex items-center justify-between border-t border-zinc-100 px-5 py-3 text-sm" aria-label="Item pages">
              <Button variant="secondary" onClick={() => setPage(currentPage - 1)} disabled={currentPage === 0}>
                Previous
              </Button>
              <span className="text-zinc-600">{`Page ${currentPage + 1} of ${pages}`}</span>
              <Button variant="secondary" onClick={() => setPage(currentPage + 1)} disabled={currentPage >= pages - 1}>
                Next
              </Button>
            </nav>
          ) : null}
        </Card>
      </div>
    </>
  );
}
