"use client";
// The runs list's table: the run's column sticks to the left, the others are
// the ones the user shows (components/runs/run-columns.ts); Started, Duration,
// Tokens and Cost sort on the server. Only the table's own box scrolls sideways,
// and only when more columns are shown than the screen holds.
import { Fragment, useState, type ReactNode } from "react";
import Link from "@/components/ui/link";
import { StatusBadge } from "@/components/runs/status-badge";
import { PlanOutcomeBadge } from "@/components/runs/plan-outcome";
import { UsageText, tokenCount } from "@/components/runs/usage";
import { SearchSnippet } from "@/components/runs/search-snippet";
import { useNow } from "@/components/runs/use-now";
import { DateTime } from "@/components/ui/date-time";
import { formatDuration, formatScore } from "@/lib/format/figures";
import { runDurationMs, runTimes } from "@/lib/runs/run-time";
import { routedToText } from "@/lib/runs/routing-label";
import { versionCell } from "@/lib/runs/version-label";
import { inboxHref } from "@/lib/runs/stuck-words";
import { plural } from "@/lib/text/plural";
import { isTerminal, type RunListRow, type RunSort } from "@/lib/runs/schemas";
import type { RunColumn } from "./run-columns";
import { scoreTitle } from "@/lib/runs/run-scores";

export interface SortState {
  sort?: RunSort;
  order?: "asc" | "desc";
}

const CELL = "px-2 py-2 align-top";
// Opaque backgrounds: a row scrolled under the sticky column must not show through it.
const STICKY = "sticky left-0 z-10";

/** A column header's sort button: the arrow says the current order, the name what a click does. */
function SortButton({ column, label, state, onSort }: { column: RunSort; label: string; state: SortState; onSort: (column: RunSort) => void }) {
  const active = (state.sort ?? "started") === column;
  const order = state.order ?? "desc";
  const arrow = active ? (order === "desc" ? "↓" : "↑") : "";
  return (
    <button type="button" aria-label={`Sort by ${label.toLowerCase()}`} onClick={() => onSort(column)} className={`uppercase tracking-wide hover:text-zinc-900 ${active ? "text-zinc-900" : ""}`}>
      {label}
      {arrow ? <span aria-hidden> {arrow}</span> : null}
    </button>
  );
}

function ariaSort(state: SortState, columns: RunSort[]): "ascending" | "descending" | undefined {
  const sort = state.sort ?? "started";
  if (!columns.includes(sort)) return undefined;
  return (state.order ?? "desc") === "desc" ? "descending" : "ascending";
}

/** The usage cell, self over total on two lines so it stays narrow. */
function UsageCell({ row }: { row: RunListRow }) {
  const same = tokenCount(row.self) === tokenCount(row.total);
  return (
    <div className="whitespace-nowrap text-zinc-700">
      <UsageText usage={row.self} />
      {same ? null : (
        <div className="text-zinc-500">
          / <UsageText usage={row.total} />
        </div>
      )}
    </div>
  );
}

/** Why a run is in "stuck or burning", and the call to open when an approver is what it waits for. */
function StuckReasons({ row }: { row: RunListRow }) {
  if (!row.stuck?.length) return null;
  const waiting = row.waitingApproval;
  return (
    <p data-testid="stuck-reasons" className="mt-0.5 text-xs text-amber-800">
      {row.stuck.join(" · ")}
      {waiting ? (
        <>
          {" · "}
          <Link href={inboxHref(waiting.approvalId)} className="font-medium underline" aria-label={`Open the waiting ${waiting.toolName} call in the inbox`}>
            open in inbox
          </Link>
        </>
      ) : null}
    </p>
  );
}

function cells(row: RunListRow, depth: number, now: number): Record<RunColumn, ReactNode> {
  return {
    status: (
      <>
        <StatusBadge status={row.status} />
        {row.pendingApprovals ? <span className="ml-1 text-xs text-amber-700">{row.pendingApprovals} waiting</span> : null}
        {row.temporalStatus && row.temporalStatus !== "RUNNING" && !isTerminal(row.status) ? <span className="ml-1 text-xs text-zinc-500">({row.temporalStatus.toLowerCase()})</span> : null}
        {/* Only this outcome adds to the status: a completed plan's run completed, a failed one's failed with plan_failed. */}
        {row.planOutcome === "partially_failed" ? (
          <span className="ml-1">
            <PlanOutcomeBadge outcome={row.planOutcome} />
          </span>
        ) : null}
        {row.error ? (
          <p className="mt-0.5 max-w-[10rem] truncate text-xs text-red-700" data-testid="failure-reason" title={row.error.message}>
            {row.error.reason.replaceAll("_", " ")}
          </p>
        ) : null}
      </>
    ),
    routedTo: (
      <span className="block max-w-[10rem] text-xs text-zinc-600" data-testid="routed-to">
        {routedToText(row) ?? "—"}
      </span>
    ),
    version: (
      <span className="block max-w-[9rem] text-xs text-zinc-600" data-testid="run-version">
        {versionCell(row)}
        {row.label ? (
          <span data-testid="run-label" className="ml-1 rounded bg-sky-100 px-1 text-sky-900" title={row.label.variant === "split" ? `Started by label ${row.label.name}: drew its split's version` : `Started by label ${row.label.name}`}>
            {row.label.name}
            {row.label.variant === "split" ? " · split" : ""}
          </span>
        ) : null}
      </span>
    ),
    startedBy: (
      <span className="block max-w-[10rem] truncate text-xs text-zinc-600" title={row.startedBy ?? undefined}>
        {row.startedBy ?? "—"}
      </span>
    ),
    started: (
      <span className="text-xs text-zinc-600">
        <DateTime value={row.startedAt} testId={depth ? undefined : "run-row-started"} />
      </span>
    ),
    // The run header's duration: start → end, or → now while it works (lib/runs/run-time.ts).
    duration: (
      <span className="whitespace-nowrap text-xs text-zinc-600" data-testid="run-row-duration">
        {row.endedAt || now ? formatDuration(runDurationMs(runTimes(row), now)) : "—"}
      </span>
    ),
    // The mean of the run's online evaluations, each evaluator's in the title (lib/runs/run-scores.ts).
    score: row.score ? (
      <span className="whitespace-nowrap text-xs tabular-nums text-zinc-700" data-testid="run-row-score" title={scoreTitle(row.score)}>
        {formatScore(row.score.mean)}
      </span>
    ) : (
      <span className="text-xs text-zinc-400" data-testid="run-row-score">
        —
      </span>
    ),
    usage: (
      <span className="text-xs" data-testid="run-row-usage">
        <UsageCell row={row} />
      </span>
    ),
  };
}

function Row({ row, depth, columns, open, onToggle, selected, onSelect }: { row: RunListRow; depth: number; columns: RunColumn[]; open: boolean; onToggle?: () => void; selected?: boolean; onSelect?: (on: boolean) => void }) {
  const now = useNow();
  const shown = cells(row, depth, now);
  const background = depth ? "bg-zinc-50" : "bg-white";
  return (
    <tr className={depth ? background : `border-t border-zinc-200 ${background}`} data-testid={depth ? "sub-run-row" : "run-row"}>
      <td className={`${STICKY} ${background} w-[16rem] max-w-[16rem] py-2 pr-2`} style={{ paddingLeft: `${depth * 1.5 + 0.5}rem` }}>
        <div className="flex items-start gap-2">
          {onSelect ? <input type="checkbox" aria-label={`Select run ${row.runId}`} data-testid="select-run" checked={selected ?? false} onChange={(e) => onSelect(e.target.checked)} className="mt-1" /> : null}
          {onToggle ? (
            <button type="button" aria-label={open ? `Hide sub-runs of ${row.runId}` : `Show sub-runs of ${row.runId}`} aria-expanded={open} onClick={onToggle} className="w-4 shrink-0 text-zinc-500">
              {open ? "▾" : "▸"}
            </button>
          ) : (
            <span className="w-4 shrink-0" />
          )}
          <div className="min-w-0">
            <Link href={`/runs/${encodeURIComponent(row.runId)}`} className="font-medium break-words text-indigo-700 hover:underline">
              {depth ? `↳ ${row.agentName}` : (row.graphName ?? row.agentName)}
            </Link>
            {row.subRuns.length ? (
              <p data-testid="sub-run-count" className="text-xs text-zinc-500">
                {plural(row.subRuns.length, "sub-run")}
              </p>
            ) : null}
            <p className="truncate text-xs text-zinc-500" title={row.task}>
              {row.task}
            </p>
            {row.match ? <SearchSnippet hit={row.match} /> : null}
            <StuckReasons row={row} />
          </div>
        </div>
      </td>
      {columns.map((column) => (
        <td key={column} className={CELL}>
          {shown[column]}
        </td>
      ))}
    </tr>
  );
}

/** The table of one page of runs; `body` replaces the rows while there are none to show (loading, nothing matches). */
export function RunsTable({
  rows,
  columns,
  sort,
  onSort,
  chosen,
  onChoose,
  busy,
  body,
}: {
  rows: RunListRow[];
  columns: RunColumn[];
  sort: SortState;
  onSort: (column: RunSort) => void;
  chosen: ReadonlySet<string>;
  onChoose: (runId: string, on: boolean) => void;
  busy: boolean;
  body?: ReactNode;
}) {
  const [openGroups, setOpenGroups] = useState<Set<string>>(new Set());
  const flatten = (list: RunListRow[], depth: number): { row: RunListRow; depth: number }[] => list.flatMap((r) => [{ row: r, depth }, ...flatten(r.subRuns, depth + 1)]);
  const headers: Record<RunColumn, ReactNode> = {
    status: "Status",
    routedTo: "Routed to",
    version: "Version",
    startedBy: "Started by",
    score: <span title="The mean of the run's online evaluation scores (0–1); each evaluator's in the cell's title">Score</span>,
    started: <SortButton column="started" label="Started" state={sort} onSort={onSort} />,
    duration: <SortButton column="duration" label="Duration" state={sort} onSort={onSort} />,
    usage: (
      <span className="whitespace-nowrap" title="The run's own tokens and cost, then its whole tree's (with sub-runs); the sort reads the tree's">
        <SortButton column="tokens" label="Tokens" state={sort} onSort={onSort} /> · <SortButton column="cost" label="Cost" state={sort} onSort={onSort} />
      </span>
    ),
  };
  const sorts: Partial<Record<RunColumn, RunSort[]>> = { started: ["started"], duration: ["duration"], usage: ["tokens", "cost"] };
  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white" data-testid="runs-table-box" aria-busy={busy}>
      <table className="w-full text-left text-sm">
        <thead className="bg-zinc-50 text-xs uppercase tracking-wide text-zinc-500">
          <tr>
            <th className={`${STICKY} bg-zinc-50 py-2 pl-10 pr-2`}>Run</th>
            {columns.map((column) => (
              <th key={column} className="whitespace-nowrap px-2 py-2" aria-sort={sorts[column] ? ariaSort(sort, sorts[column]) : undefined}>
                {headers[column]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {body ? (
            <tr>
              <td colSpan={columns.length + 1} className="p-6 text-center text-zinc-500">
                {body}
              </td>
            </tr>
          ) : (
            rows.map((row) => {
              const open = openGroups.has(row.runId);
              const toggle = row.subRuns.length
                ? () =>
                    setOpenGroups((prev) => {
                      const next = new Set(prev);
                      if (next.has(row.runId)) next.delete(row.runId);
                      else next.add(row.runId);
                      return next;
                    })
                : undefined;
              return (
                <Fragment key={row.runId}>
                  <Row row={row} depth={0} columns={columns} open={open} onToggle={toggle} selected={chosen.has(row.runId)} onSelect={(on) => onChoose(row.runId, on)} />
                  {open ? flatten(row.subRuns, 1).map((sub) => <Row key={sub.row.runId} row={sub.row} depth={sub.depth} columns={columns} open={false} />) : null}
                </Fragment>
              );
            })
          )}
        </tbody>
      </table>
    </div>
  );
}
