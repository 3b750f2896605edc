"use client";
// Two runs side by side, row by row as aligned (lib/runs/diff/align.ts): a
// summary bar with the first divergence and the deltas, a "differences only"
// filter, and a virtualised list (@tanstack/react-virtual: rows of measured
// height, only those on screen in the DOM) so 5,000-step runs open at once.
// Opens scrolled to the first divergence. The comparison carries the steps
// around it; the steps of other rows are read as those rows come into view
// (use-compared-steps.ts), a placeholder standing in meanwhile. The server's
// HTML (and hydration) shows the rows from the first divergence on in the
// flow, so it is on screen at first paint, before the scripts have run; the
// virtualised list takes over once hydrated.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { cn } from "@/components/ui/cn";
import { formatDuration } from "@/components/runs/usage";
import { formatCost } from "@/lib/runs/pricing";
import type { RunComparison, StepView } from "@/lib/runs/diff/schemas";
import type { DiffRow, RowStatus } from "@/lib/runs/diff/align";
import { formatSigned, formatSignedCost, totalTokens } from "@/lib/runs/diff/totals";
import { graphVersionLabel } from "@/lib/runs/version-label";
import { Alert } from "@/components/ui/alert";
import { StepCell, type Side } from "./step-cell";
import { loadStepsFromApi, useComparedSteps, type LoadSteps } from "./use-compared-steps";

const ROW_ESTIMATE = 140;
/** Rows in the server's HTML, from the first divergence on: more than the list's box (70vh) holds. */
const PREVIEW_ROWS = 12;

const STATUS_LABEL: Record<RowStatus, string> = { equal: "same", changed: "changed", only_a: "only in A", only_b: "only in B" };
const STATUS_STYLE: Record<RowStatus, string> = {
  equal: "border-l-zinc-200",
  changed: "border-l-amber-400 bg-amber-50/40",
  only_a: "border-l-red-400 bg-red-50/50",
  only_b: "border-l-emerald-400 bg-emerald-50/50",
};

function StepDelta({ row, a, b }: { row: DiffRow; a: StepView | null; b: StepView | null }) {
  const parts: string[] = [];
  if (a && b) {
    if (a.tokens || b.tokens) parts.push(formatSigned(totalTokens(b.tokens) - totalTokens(a.tokens), " tok"));
    if (a.latencyMs !== null && b.latencyMs !== null) parts.push(formatSigned(b.latencyMs - a.latencyMs, " ms"));
  }
  return (
    <div className="space-y-1 text-center text-[11px] text-zinc-600">
      <div className={cn("font-medium", row.status === "equal" ? "text-zinc-400" : "text-zinc-800")}>{STATUS_LABEL[row.status]}</div>
      {parts.map((p) => (
        <div key={p} className="whitespace-nowrap">
          {p}
        </div>
      ))}
    </div>
  );
}

function Missing({ side }: { side: "A" | "B" }) {
  return <div className="py-2 text-xs italic text-zinc-400">not in run {side}</div>;
}

/** A step on its way from the server. */
function Loading() {
  return (
    <div data-testid="diff-step-loading" className="space-y-1.5 py-1" aria-busy="true">
      <div className="h-3 w-1/3 rounded bg-zinc-100" />
      <div className="h-8 rounded bg-zinc-50" />
    </div>
  );
}

function SummaryBar({ comparison, onJump }: { comparison: RunComparison; onJump: () => void }) {
  const { counts, delta, firstDivergence } = comparison;
  return (
    <div data-testid="diff-summary" className="flex flex-wrap items-center gap-x-4 gap-y-1 rounded-md border border-zinc-200 bg-white px-3 py-2 text-sm">
      {firstDivergence === null ? (
        <span data-testid="diff-no-divergence" className="font-medium text-emerald-700">
          The runs took the same steps with the same contents
        </span>
      ) : (
        <button type="button" onClick={onJump} data-testid="diff-jump" className="font-medium text-indigo-700 hover:underline">
          First divergence at step {firstDivergence + 1}
        </button>
      )}
      <span data-testid="diff-count-changed">{counts.changed.toLocaleString("en-US")} changed</span>
      <span data-testid="diff-count-added">{counts.onlyB.toLocaleString("en-US")} added</span>
      <span data-testid="diff-count-removed">{counts.onlyA.toLocaleString("en-US")} removed</span>
      <span className="text-zinc-400">|</span>
      <span data-testid="diff-delta-tokens" title="tokens of B − tokens of A">
        Δ tokens {formatSigned(delta.tokens)}
      </span>
      <span data-testid="diff-delta-cost" title="cost of B − cost of A">
        Δ cost {formatSignedCost(delta.cost)}
      </span>
      <span data-testid="diff-delta-latency" title="duration of B − duration of A">
        Δ latency {delta.latencyMs === null ? "—" : formatSigned(delta.latencyMs, " ms")}
      </span>
      <span className="text-xs text-zinc-500" title="A sub-run's id (in a message_agent result, say), another generated id or an ISO timestamp differs between any two runs: the comparison reads each as a placeholder, and the rows show what was recorded.">
        ids and timestamps are not compared
      </span>
    </div>
  );
}

function RunTotalsLine({ side, run }: { side: "A" | "B"; run: RunComparison["a"] }) {
  return (
    <div className="min-w-0 text-xs text-zinc-600" data-testid={`diff-totals-${side.toLowerCase()}`}>
      <span className="font-semibold text-zinc-900">
        {side} · {graphVersionLabel({ graphName: run.graphName, ...run.graphVersion })}
      </span>{" "}
      · {run.steps.length.toLocaleString("en-US")} steps
      {run.replayedSteps > 0 ? ` (${run.replayedSteps.toLocaleString("en-US")} replayed)` : ""} · {totalTokens(run.totals.tokens).toLocaleString("en-US")} tok · {formatCost(run.totals.cost)} ·{" "}
      {run.totals.latencyMs === null ? "running" : formatDuration(run.totals.latencyMs)}
    </div>
  );
}

const noSubscription = () => () => {};

/** False while the server renders and React hydrates its HTML, true from then on (and on a client-side navigation). */
function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/** One aligned row's cells: A's step, the status and deltas, B's step. */
function RowCells({ row, index, a, b }: { row: DiffRow; index: number; a: StepView | null; b: StepView | null }): ReactNode {
  return (
    <>
      <div className="pt-0.5 text-right font-mono text-xs text-zinc-500">{index + 1}</div>
      {row.a === null ? <Missing side="A" /> : a ? <StepCell step={a} other={b} changed={row.changed} side="a" /> : <Loading />}
      <StepDelta row={row} a={a} b={b} />
      {row.b === null ? <Missing side="B" /> : b ? <StepCell step={b} other={a} changed={row.changed} side="b" /> : <Loading />}
    </>
  );
}

/** The attributes of a row's box, in the server's preview and in the virtualised list alike. */
function rowBox(row: DiffRow, index: number, divergence: boolean, placement: string) {
  return {
    "data-testid": divergence ? "diff-first-divergence" : "diff-row",
    "data-status": row.status,
    "data-step": index + 1,
    className: cn(placement, "grid w-full grid-cols-[3rem_minmax(0,1fr)_6rem_minmax(0,1fr)] gap-2 border-b border-l-4 border-b-zinc-100 px-1 py-2", STATUS_STYLE[row.status], divergence && "ring-2 ring-inset ring-indigo-500"),
  };
}

export function DiffView({ comparison, loadSteps = loadStepsFromApi }: { comparison: RunComparison; loadSteps?: LoadSteps }) {
  const [onlyDifferences, setOnlyDifferences] = useState(false);
  const { stepOf, request, error } = useComparedSteps(comparison, loadSteps);
  const visible = useMemo(() => {
    const all = comparison.rows.map((row, index) => ({ row, index }));
    return onlyDifferences ? all.filter((r) => r.row.status !== "equal") : all;
  }, [comparison.rows, onlyDifferences]);
  const scroller = useRef<HTMLDivElement>(null);
  // The project does not use the React Compiler, and the memoised cells get steps, never the
  // virtualizer's functions, so its compiler warning does not apply (as in the trace's waterfall).
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: visible.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 4,
    getItemKey: (i) => visible[i]!.index,
  });
  const firstAt = visible.findIndex((v) => v.index === comparison.firstDivergence);
  const hydrated = useHydrated();
  const jump = useCallback(() => {
    if (firstAt >= 0) virtualizer.scrollToIndex(firstAt, { align: "start" });
  }, [firstAt, virtualizer]);
  // Open at the first divergence (before the list is painted, once it replaces the preview), and go
  // back to it when the filter changes the rows.
  useLayoutEffect(() => {
    if (hydrated) jump();
  }, [hydrated, jump]);
  const items = virtualizer.getVirtualItems();
  // Read the steps of the rows on screen (and the overscan) that the comparison did not carry; not
  // those of the rows the list shows for a moment before it has scrolled to the divergence (the top
  // rows, whose steps the answer left out: two reads of whole run trees for nothing).
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? -1;
  const opened = useRef(false);
  useEffect(() => {
    if (!hydrated) return;
    if (!opened.current) {
      const opensAt = Math.max(firstAt, 0);
      if (opensAt > last || opensAt < first) return;
      opened.current = true;
    }
    const wanted: { side: Side; index: number }[] = [];
    for (let i = first; i <= last && i < visible.length; i++) {
      const { row } = visible[i]!;
      if (row.a !== null) wanted.push({ side: "a", index: row.a });
      if (row.b !== null) wanted.push({ side: "b", index: row.b });
    }
    request(wanted);
  }, [hydrated, firstAt, first, last, visible, request]);

  return (
    <section className="space-y-3">
      <SummaryBar comparison={comparison} onJump={jump} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <label className="flex items-center gap-2 text-sm text-zinc-700">
          <input type="checkbox" checked={onlyDifferences} onChange={(e) => setOnlyDifferences(e.target.checked)} data-testid="diff-only-differences" />
          Show only differences
        </label>
        <span className="text-xs text-zinc-500">
          {visible.length.toLocaleString("en-US")} of {comparison.rows.length.toLocaleString("en-US")} steps
        </span>
      </div>
      <div className="grid grid-cols-[3rem_minmax(0,1fr)_6rem_minmax(0,1fr)] gap-2 border-b border-zinc-200 pb-1">
        <span />
        <RunTotalsLine side="A" run={comparison.a} />
        <span />
        <RunTotalsLine side="B" run={comparison.b} />
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div ref={scroller} data-testid="diff-rows" className="h-[70vh] overflow-auto rounded-md border border-zinc-200 bg-white">
        {visible.length === 0 ? (
          <p className="p-4 text-sm text-zinc-500">{comparison.rows.length === 0 ? "Neither run has any steps yet." : "No differences."}</p>
        ) : !hydrated ? (
          visible.slice(Math.max(firstAt, 0), Math.max(firstAt, 0) + PREVIEW_ROWS).map(({ row, index }) => (
            <div key={index} {...rowBox(row, index, index === comparison.firstDivergence, "relative")}>
              <RowCells row={row} index={index} a={row.a === null ? null : stepOf("a", row.a)} b={row.b === null ? null : stepOf("b", row.b)} />
            </div>
          ))
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
            {items.map((item) => {
              const { row, index } = visible[item.index]!;
              return (
                <div key={item.key} ref={virtualizer.measureElement} data-index={item.index} {...rowBox(row, index, index === comparison.firstDivergence, "absolute left-0 top-0")} style={{ transform: `translateY(${item.start}px)` }}>
                  <RowCells row={row} index={index} a={row.a === null ? null : stepOf("a", row.a)} b={row.b === null ? null : stepOf("b", row.b)} />
                </div>
              );
            })}
          </div>
        )}
      </div>
    </section>
  );
}
