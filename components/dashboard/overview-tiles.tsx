"use client";
// The overview's tiles: the runs started in the range and where each is now
// (they add up: completed + failed + cancelled + still running = started), the
// success rate with its denominator said, tokens, cost (never "$0" for calls
// of models without a price) and the approvals waiting. Each run tile links to
// the runs list showing exactly the runs it counts: the same start range and
// filters, experiment runs included (as counted), which the page says.
import Link from "@/components/ui/link";
import { Card } from "@/components/ui/card";
import { formatCost, formatCount, formatDuration } from "@/lib/format/figures";
import type { MetricsDashboard, StartedState } from "@/lib/metrics/schemas";
import { gridEndMs } from "./chart-data";
import { drillDownHref } from "./dashboard-url";
import { formatCompact, formatMetric } from "./format";

function Tile({ label, value, full, note, href, testId }: { label: string; value: string; full?: string; note?: string; href?: string | null; testId: string }) {
  // Words wrap, never clip: a tile grows to its text (e2e/figures-agree.spec.ts checks every text node).
  const body = (
    <>
      <p className="text-xs text-zinc-500 break-words">{label}</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums text-zinc-900 break-words" data-testid={testId} title={full}>
        {value}
      </p>
      {note ? (
        <p className="mt-0.5 text-xs text-zinc-500 break-words" data-testid={`${testId}-note`}>
          {note}
        </p>
      ) : null}
    </>
  );
  return (
    <Card className="min-w-0 px-4 py-3">
      {href ? (
        <Link href={href} className="block hover:opacity-80" aria-label={`${label}: ${value}${note ? `, ${note}` : ""}. Open these runs`}>
          {body}
        </Link>
      ) : (
        body
      )}
    </Card>
  );
}

/** The figures of the run tiles from an answer's totals (each null-safe: a series not asked for counts 0). */
export function runFigures(data: Pick<MetricsDashboard, "totals">) {
  const n = (value: number | null | undefined) => value ?? 0;
  const completed = n(data.totals.started_completed);
  const failed = n(data.totals.started_failed);
  const cancelled = n(data.totals.started_cancelled);
  const running = n(data.totals.started_running);
  return { started: completed + failed + cancelled + running, completed, failed, cancelled, running, ended: completed + failed + cancelled, successRate: data.totals.success_rate };
}

export function OverviewTiles({ data }: { data: MetricsDashboard }) {
  const runs = runFigures(data);
  // The range's runs: started from its first instant to just before its grid's end (the runs list's `to` is inclusive).
  const from = new Date(data.range.from);
  const to = new Date(gridEndMs(data.range) - 1);
  const href = (lineKey: StartedState | "") => drillDownHref({ series: "runs_by_state", lineKey, breakdown: "none", filters: data.filters, from, to });
  const tokens = (data.totals.tokens_in ?? 0) + (data.totals.tokens_out ?? 0);
  const unpriced = data.totals.unpriced_calls ?? 0;
  const cost = data.totals.cost ?? 0;
  const pending = data.pendingApprovals;
  return (
    <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" data-testid="overview-tiles">
      <Tile label="Runs started" value={formatCount(runs.started)} href={href("")} testId="stat-runs-started" />
      <Tile label="Completed" value={formatCount(runs.completed)} href={href("completed")} testId="stat-runs-completed" />
      <Tile label="Failed" value={formatCount(runs.failed)} href={href("failed")} testId="stat-runs-failed" />
      <Tile label="Cancelled" value={formatCount(runs.cancelled)} href={href("cancelled")} testId="stat-runs-cancelled" />
      <Tile label="Still running" value={formatCount(runs.running)} href={href("running")} testId="stat-runs-running" />
      <Tile
        label="Success rate"
        value={formatMetric(runs.successRate, "ratio")}
        note={runs.ended ? `${formatCount(runs.completed)} completed of ${formatCount(runs.ended)} ended` : "no run has ended yet"}
        testId="stat-success-rate"
      />
      {/* Millions of tokens read "1.2M" (the exact count on hover): a figure of the tile's size, never wider than it. */}
      <Tile
        label="Tokens"
        value={formatCompact(tokens)}
        full={`${formatCount(tokens)} tokens`}
        note={tokens > 0 ? `${formatCompact(data.totals.tokens_in ?? 0)} in · ${formatCompact(data.totals.tokens_out ?? 0)} out` : undefined}
        testId="stat-tokens"
      />
      <Tile
        label="Cost"
        // Calls of a model without a price have no cost to add: alone they are "unpriced", never "$0".
        value={unpriced > 0 && cost === 0 ? formatCost(null) : formatCost(cost)}
        note={unpriced > 0 ? `${cost > 0 ? "+ " : ""}${formatCount(unpriced)} model call${unpriced === 1 ? "" : "s"} without a price` : undefined}
        testId="stat-cost"
      />
      <Tile
        label="Pending approvals"
        value={formatCount(pending.count)}
        note={pending.oldestWaitMs ? `oldest waiting ${formatDuration(pending.oldestWaitMs)}` : undefined}
        href="/runs?awaitingApproval=1"
        testId="stat-approvals-pending"
      />
    </div>
  );
}
