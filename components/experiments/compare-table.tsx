"use client";
// One row per item, one column per target: each cell the item's score on that
// target (linked to its run), marked when it regressed or improved against the
// first target; each row links to the diff view of the two runs.
import Link from "@/components/ui/link";
import type { ExperimentTarget } from "@/lib/experiments/schemas";
import { cn } from "@/components/ui/cn";
import { diffPair, type CompareCell, type CompareRow } from "./compare-model";

const CHANGE_STYLE: Record<CompareCell["change"], string> = {
  regressed: "bg-red-50 ring-1 ring-inset ring-red-200",
  improved: "bg-emerald-50 ring-1 ring-inset ring-emerald-200",
  same: "",
  baseline: "",
  pending: "",
};

function cellTitle(cell: CompareCell): string {
  const scores = cell.result?.scores.map((score) => `${score.scorer}: ${score.value.toFixed(2)} ${score.pass === null ? "(undecided)" : score.pass ? "pass" : "fail"} — ${score.detail}`) ?? [];
  return [...cell.reasons.map((reason) => `changed: ${reason}`), ...scores].join("\n");
}

function CellContent({ cell, baseRunId }: { cell: CompareCell; baseRunId: string | null }) {
  const result = cell.result;
  if (!result) return <span className="text-zinc-400">—</span>;
  if (result.status === "pending" || result.status === "running") return <span className="text-zinc-400">{result.status}…</span>;
  const passes = result.scores.filter((score) => score.pass === true).length;
  const decided = result.scores.filter((score) => score.pass !== null).length;
  const label = result.status === "failed" ? "run failed" : cell.value === null ? "no score" : cell.value.toFixed(2);
  return (
    <div className="flex flex-wrap items-baseline gap-x-2">
      {result.runId ? (
        <Link href={`/runs/${result.runId}`} className="font-medium text-indigo-700 hover:underline" title={cellTitle(cell)}>
          {label}
        </Link>
      ) : (
        <span title={cellTitle(cell)}>{label}</span>
      )}
      {result.status === "scored" && decided > 0 ? <span className="text-xs text-zinc-500">{`${passes}/${decided} pass`}</span> : null}
      {cell.change === "regressed" ? <span className="text-xs font-medium text-red-700">regressed</span> : null}
      {cell.change === "improved" ? <span className="text-xs font-medium text-emerald-700">improved</span> : null}
      {baseRunId && result.runId && cell.change !== "baseline" ? (
        <Link href={`/runs/compare?a=${encodeURIComponent(baseRunId)}&b=${encodeURIComponent(result.runId)}`} className="text-xs text-zinc-500 hover:underline" aria-label={`Diff against the baseline`}>
          diff
        </Link>
      ) : null}
    </div>
  );
}

export function CompareTable({ rows, targets }: { rows: CompareRow[]; targets: ExperimentTarget[] }) {
  if (rows.length === 0) return <p className="px-5 py-6 text-sm text-zinc-500">No items match.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-zinc-200 text-sm" aria-label="Scores per item and target">
        <thead className="bg-zinc-50 text-left text-xs font-medium uppercase tracking-wide text-zinc-500">
          <tr>
            <th className="px-5 py-2">#</th>
            <th className="px-3 py-2">Task</th>
            {targets.map((target, index) => (
              <th key={index} className="px-3 py-2">
                {target.label}
              </th>
            ))}
            <th className="px-3 py-2">Diff</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {rows.map((row) => {
            const pair = diffPair(row);
            const baseRunId = row.cells[0]?.result?.runId ?? null;
            return (
              <tr
                key={row.itemId}
                data-testid={`experiment-row-${row.position}`}
                data-regression={row.regressed ? "true" : undefined}
                data-improvement={row.improved ? "true" : undefined}
                className={row.regressed ? "bg-red-50/40" : undefined}
              >
                <td className="px-5 py-2 text-zinc-500">{row.position}</td>
                <td className="max-w-md px-3 py-2">
                  <div className="line-clamp-2 text-zinc-900" title={row.task}>
                    {row.task}
                  </div>
                  {row.tags.length > 0 ? <div className="mt-0.5 text-xs text-zinc-500">{row.tags.join(", ")}</div> : null}
                </td>
                {row.cells.map((cell, index) => (
                  <td key={index} className={cn("px-3 py-2 align-top", CHANGE_STYLE[cell.change])} data-change={cell.change}>
                    <CellContent cell={cell} baseRunId={baseRunId} />
                  </td>
                ))}
                <td className="px-3 py-2">
                  {pair ? (
                    <Link href={`/runs/compare?a=${encodeURIComponent(pair.a)}&b=${encodeURIComponent(pair.b)}`} className="text-indigo-700 hover:underline" aria-label={`Open the diff of item ${row.position}`}>
                      Open diff
                    </Link>
                  ) : (
                    <span className="text-zinc-400">—</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
