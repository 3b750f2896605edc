"use client";
// "Evaluation scores" on the overview (issue 40 §2): each online evaluator's
// mean score per time bucket of the page's range and graph filter, one line per
// version or per label of the runs scored, drawn as a small line from 0 to 1
// with each point's mean and count in its title. Nothing shows while no
// evaluator scored a run in the range.
import { useState } from "react";
import Link from "@/components/ui/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { useInBrowser } from "@/components/ui/date-time";
import { Select } from "@/components/ui/input";
import { getJson } from "@/lib/http/client";
import { formatCount, formatDateTime, formatScore } from "@/lib/format/figures";
import type { MetricFilters, MetricsDashboard } from "@/lib/metrics/schemas";
import { describeStep } from "@/lib/metrics/step";
import { SCORE_SPLITS, type ScoreSeries, type ScoreSeriesLine, type ScoreSplit } from "@/lib/online-eval/score-series";
import { gridEndMs } from "@/components/dashboard/chart-data";
import { keyColor } from "@/components/dashboard/series-colors";

const REFRESH_MS = 30_000;
const WIDTH = 240;
const HEIGHT = 40;

/** The card's query: the page's whole range and graph filter, and the split. */
export function scoreSeriesSearch(range: MetricsDashboard["range"], filters: MetricFilters, split: ScoreSplit): string {
  const params = new URLSearchParams({ from: new Date(Date.parse(range.from)).toISOString(), to: new Date(gridEndMs(range)).toISOString(), split });
  if (filters.graph) params.set("graph", filters.graph);
  return params.toString();
}

/** A line's points as SVG coordinates; an empty bucket breaks the line (a gap, not a zero). */
function segments(means: readonly (number | null)[]): string[] {
  const step = means.length > 1 ? WIDTH / (means.length - 1) : 0;
  const out: string[] = [];
  let current: string[] = [];
  means.forEach((mean, i) => {
    if (mean === null) {
      if (current.length) out.push(current.join(" "));
      current = [];
      return;
    }
    current.push(`${(i * step).toFixed(1)},${((1 - mean) * HEIGHT).toFixed(1)}`);
  });
  if (current.length) out.push(current.join(" "));
  return out;
}

function Sparkline({ line, series }: { line: ScoreSeriesLine; series: ScoreSeries }) {
  // Moments are written in the browser only (the reader's zone): a server-written one would differ at hydration.
  const inBrowser = useInBrowser();
  const color = keyColor(`${line.evaluator}/${line.key}`);
  const step = line.means.length > 1 ? WIDTH / (line.means.length - 1) : 0;
  return (
    <svg width={WIDTH} height={HEIGHT} viewBox={`-3 -3 ${WIDTH + 6} ${HEIGHT + 6}`} role="img" aria-label={`${line.evaluator} ${line.key}: mean score per ${describeStep(series.stepSeconds)}`} className="overflow-visible">
      <line x1={0} x2={WIDTH} y1={HEIGHT * 0.2} y2={HEIGHT * 0.2} stroke="#e4e4e7" strokeDasharray="2 3" />
      {segments(line.means).map((points) => (
        <polyline key={points} points={points} fill="none" stroke={color} strokeWidth={1.5} />
      ))}
      {line.means.map((mean, i) =>
        mean === null ? null : (
          <circle key={i} cx={i * step} cy={(1 - mean) * HEIGHT} r={2} fill={color}>
            <title>{`${inBrowser ? `${formatDateTime(series.buckets[i] ?? series.from)}: ` : ""}${formatScore(mean)} (${formatCount(line.counts[i] ?? 0)} scored)`}</title>
          </circle>
        ),
      )}
    </svg>
  );
}

export function EvaluationScoresCard({ range, filters }: { range: MetricsDashboard["range"]; filters: MetricFilters }) {
  const [split, setSplit] = useState<ScoreSplit>("version");
  const search = scoreSeriesSearch(range, filters, split);
  const query = useQuery({
    queryKey: ["evaluator-scores", search],
    queryFn: () => getJson<ScoreSeries & { capped: boolean }>(`/api/evaluators/scores?${search}`, { what: "evaluation scores" }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  const series = query.data;
  if (!query.error && (!series || series.lines.length === 0)) return null;
  return (
    <Card className="space-y-3 px-4 py-3" data-testid="evaluation-scores" aria-label="Evaluation scores">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 className="text-sm font-semibold text-zinc-900">Evaluation scores</h2>
          <p className="text-xs text-zinc-500">
            Each online evaluator&apos;s mean score (0–1) of the runs that ended in this range{series ? `, per ${describeStep(series.stepSeconds)}` : ""}
            {series?.capped ? " (the newest 50,000 scored runs)" : ""}
          </p>
        </div>
        <label className="flex items-center gap-2 text-xs text-zinc-600">
          Split by
          <Select aria-label="Split scores by" value={split} onChange={(e) => setSplit(e.target.value as ScoreSplit)}>
            {SCORE_SPLITS.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
        </label>
      </div>
      {query.error ? <p className="text-sm text-red-700">{query.error.message}</p> : null}
      {series ? (
        <table className="w-full text-left text-sm">
          <thead className="text-xs text-zinc-500">
            <tr>
              <th className="py-1 pr-2 font-medium">Evaluator</th>
              <th className="py-1 pr-2 font-medium">{split === "version" ? "Version" : "Label"}</th>
              <th className="py-1 pr-2 font-medium">Mean</th>
              <th className="py-1 pr-2 font-medium">Scored</th>
              <th className="py-1 font-medium">Over the range</th>
            </tr>
          </thead>
          <tbody>
            {series.lines.map((line) => (
              <tr key={`${line.evaluator}/${line.key}`} className="border-t border-zinc-100" data-testid={`score-line-${line.evaluator}-${line.key}`}>
                <td className="py-1 pr-2">
                  <Link className="text-indigo-700 hover:underline" href={`/runs?evaluator=${encodeURIComponent(line.evaluator)}`}>
                    {line.evaluator}
                  </Link>
                </td>
                <td className="py-1 pr-2 text-zinc-700">{line.key}</td>
                <td className="py-1 pr-2 tabular-nums" data-testid="score-line-mean">
                  {formatScore(line.mean)}
                </td>
                <td className="py-1 pr-2 tabular-nums text-zinc-600">{formatCount(line.scored)}</td>
                <td className="py-1">
                  <Sparkline line={line} series={series} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </Card>
  );
}
