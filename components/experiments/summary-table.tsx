"use client";
// The experiment's summary: per target (columns) each scorer's mean score and
// pass rate with 95 % intervals, runs scored/failed, usage totals, and the
// regressions and improvements against the first target (the baseline).
import { cn } from "@/components/ui/cn";
import { formatCost, formatDuration } from "@/lib/format/figures";
import type { TargetSummary } from "./compare-model";
import { excludesZero, formatInterval } from "@/lib/experiments/stats";

function usd(value: number): string {
  return formatCost(value);
}

function duration(ms: number): string {
  return formatDuration(ms);
}

export function SummaryTable({ summaries, thresholds }: { summaries: TargetSummary[]; thresholds: Record<string, number> }) {
  const scorerNames = summaries[0]?.scorers.map((scorer) => scorer.scorer) ?? [];
  const cell = "px-3 py-2 align-top";
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-zinc-200 text-sm" aria-label="Summary per target">
        <thead className="bg-zinc-50 text-left text-xs font-medium uppercase tracking-wide text-zinc-500">
          <tr>
            <th className="px-5 py-2">Scorer</th>
            {summaries.map((summary) => (
              <th key={summary.targetIndex} className={cell}>
                {summary.label}
                {summary.targetIndex === 0 ? <span className="ml-1 normal-case text-zinc-400">(baseline)</span> : null}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {scorerNames.map((name, scorerIndex) => (
            <tr key={name}>
              <th scope="row" className="px-5 py-2 text-left font-medium text-zinc-800">
                {name}
                {thresholds[name] !== undefined ? <span className="ml-1 text-xs font-normal text-zinc-500">{`(threshold ${thresholds[name]})`}</span> : null}
              </th>
              {summaries.map((summary) => {
                const scorer = summary.scorers[scorerIndex];
                const threshold = thresholds[name];
                const missed = threshold !== undefined && scorer?.mean !== null && scorer?.mean !== undefined && scorer.mean.estimate < threshold;
                return (
                  <td key={summary.targetIndex} className={cell} data-testid={`summary-${summary.targetIndex}-${name}`}>
                    <div className={missed ? "font-medium text-red-700" : "text-zinc-900"} title="mean score (95 % confidence interval)">
                      {`mean ${formatInterval(scorer?.mean ?? null)}`}
                    </div>
                    <div className="text-xs text-zinc-500" title="pass rate (95 % Wilson interval); undecided scores not counted">
                      {scorer && scorer.decided > 0 ? `pass ${scorer.passes}/${scorer.decided} · ${formatInterval(scorer.passRate)}` : "no decided scores"}
                    </div>
                    {scorer?.delta ? (
                      <div
                        className={cn("text-xs", excludesZero(scorer.delta) ? (scorer.delta.estimate < 0 ? "font-medium text-red-700" : "font-medium text-emerald-700") : "text-zinc-500")}
                        title="mean change from the baseline over the items scored on both (paired), 95 % t interval; an interval that excludes 0 is a change the sample supports"
                        data-testid={`summary-delta-${summary.targetIndex}-${name}`}
                      >
                        {`Δ ${formatInterval(scorer.delta, 2, true)}`}
                      </div>
                    ) : null}
                  </td>
                );
              })}
            </tr>
          ))}
          <tr>
            <th scope="row" className="px-5 py-2 text-left font-medium text-zinc-800">Runs</th>
            {summaries.map((s) => (
              <td key={s.targetIndex} className={cell}>{`${s.scored} scored${s.failed ? ` · ${s.failed} failed` : ""}${s.pending ? ` · ${s.pending} pending` : ""}`}</td>
            ))}
          </tr>
          <tr>
            <th scope="row" className="px-5 py-2 text-left font-medium text-zinc-800">Latency · tokens · cost (totals)</th>
            {summaries.map((s) => (
              <td key={s.targetIndex} className={cell}>
                {`${duration(s.latencyMs)} · ${(s.inputTokens + s.outputTokens).toLocaleString("en-US")} tokens · ${usd(s.costUsd)}`}
              </td>
            ))}
          </tr>
          <tr>
            <th scope="row" className="px-5 py-2 text-left font-medium text-zinc-800">Against the baseline</th>
            {summaries.map((s) => (
              <td key={s.targetIndex} className={cell}>
                {s.regressions === null ? (
                  <span className="text-zinc-400">—</span>
                ) : (
                  <span>
                    <span className={s.regressions > 0 ? "font-medium text-red-700" : "text-zinc-700"} data-testid={`summary-regressions-${s.targetIndex}`}>
                      {`${s.regressions} regression${s.regressions === 1 ? "" : "s"}`}
                    </span>
                    {" · "}
                    <span className={s.improvements ? "font-medium text-emerald-700" : "text-zinc-700"} data-testid={`summary-improvements-${s.targetIndex}`}>
                      {`${s.improvements ?? 0} improvement${s.improvements === 1 ? "" : "s"}`}
                    </span>
                  </span>
                )}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </div>
  );
}
