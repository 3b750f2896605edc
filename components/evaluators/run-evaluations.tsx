"use client";
// The run page's "Evaluations" card (issue 40 §2): each online evaluator's
// decision on the run's tree (scored once, by the root run) — its status, mean,
// each check's score (value, pass, detail, cost) and whether it was scored live
// or by a backfill — and "Add to dataset" for a low-scored run, through the same
// dialog as the runs list. It reads again while scores may still arrive (the run
// works, an evaluation waits, or the run ended in the last quarter of an hour).
import Link from "@/components/ui/link";
import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { AddToDatasetDialog } from "@/components/datasets/add-to-dataset-dialog";
import { evaluationsOfRunAction } from "@/lib/actions/evaluator-reads";
import { formatCost, formatScore } from "@/lib/format/figures";
import type { EvaluationView } from "@/lib/online-eval/schemas";
import { DateTime } from "@/components/ui/date-time";
import { LOW_SCORE, sourceWords, STATUS_TONES, STATUS_WORDS } from "./evaluation-words";

const LIVE_MS = 2_000;
const RECENT_MS = 5_000;
/** How long after a run ends the card keeps looking for scores (an evaluator's delay is usually shorter). */
const WATCH_AFTER_END_MS = 15 * 60_000;

function passWord(pass: boolean | null): string {
  return pass === null ? "undecided" : pass ? "pass" : "fail";
}

function EvaluationBlock({ evaluation }: { evaluation: EvaluationView }) {
  return (
    <div className="space-y-1 rounded border border-zinc-200 p-2" data-testid={`evaluation-${evaluation.evaluator}`}>
      <div className="flex flex-wrap items-center gap-2">
        <Link href={`/evaluators#${encodeURIComponent(evaluation.evaluator)}`} className="font-medium text-indigo-700 hover:underline">
          {evaluation.evaluator}
        </Link>
        <Badge tone={STATUS_TONES[evaluation.status]}>
          <span data-testid="evaluation-status">{STATUS_WORDS[evaluation.status]}</span>
        </Badge>
        {evaluation.status === "scored" ? (
          <span className="text-sm tabular-nums" data-testid="evaluation-mean" title="The mean of the checks that decided">
            mean {formatScore(evaluation.meanScore)}
          </span>
        ) : null}
        <span className="text-xs text-zinc-500" data-testid="evaluation-source">
          {sourceWords(evaluation.source)}
        </span>
        {evaluation.costUsd > 0 ? <span className="text-xs text-zinc-500">{formatCost(evaluation.costUsd)}</span> : null}
        {evaluation.evaluatedAt ? (
          <span className="text-xs text-zinc-500">
            <DateTime value={evaluation.evaluatedAt} />
          </span>
        ) : null}
      </div>
      {evaluation.error ? <p className="text-xs text-red-700">{evaluation.error}</p> : null}
      {evaluation.scores.length ? (
        <table className="w-full text-left text-xs">
          <thead className="text-zinc-500">
            <tr>
              <th className="py-0.5 pr-2 font-medium">Check</th>
              <th className="py-0.5 pr-2 font-medium">Score</th>
              <th className="py-0.5 pr-2 font-medium">Verdict</th>
              <th className="py-0.5 pr-2 font-medium">Detail</th>
              <th className="py-0.5 font-medium">Cost</th>
            </tr>
          </thead>
          <tbody>
            {evaluation.scores.map((score) => (
              <tr key={score.scorer} className="border-t border-zinc-100" data-testid="evaluation-score">
                <td className="py-0.5 pr-2 font-mono">{score.scorer}</td>
                <td className="py-0.5 pr-2 tabular-nums">{formatScore(score.value)}</td>
                <td className={`py-0.5 pr-2 ${score.pass === false ? "text-red-700" : score.pass ? "text-emerald-700" : "text-zinc-500"}`}>{passWord(score.pass)}</td>
                <td className="max-w-[28rem] py-0.5 pr-2 break-words text-zinc-600">{score.detail || "—"}</td>
                <td className="py-0.5 tabular-nums text-zinc-600">{score.costUsd > 0 ? formatCost(score.costUsd) : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

export function RunEvaluations({ runId, rootRunId, live, endedAt, canAddToDataset }: { runId: string; rootRunId: string; live: boolean; endedAt: string | null; canAddToDataset: boolean }) {
  const query = useQuery({
    queryKey: ["run-evaluations", runId],
    queryFn: async () => {
      const result = await evaluationsOfRunAction({ runId });
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
    refetchInterval: (q) => {
      if (live || q.state.data?.some((e) => e.status === "pending")) return LIVE_MS;
      // A run that answered but has no end yet (its follow-up window is open) may be scored any moment too.
      if (!endedAt) return RECENT_MS;
      return Date.now() - Date.parse(endedAt) < WATCH_AFTER_END_MS ? RECENT_MS : false;
    },
  });
  const evaluations = query.data ?? [];
  if (!evaluations.length && !query.error) return null;
  const low = evaluations.some((e) => e.status === "scored" && e.meanScore !== null && e.meanScore < LOW_SCORE);
  return (
    <Card className="mb-4 space-y-2 px-4 py-3" data-testid="run-evaluations" aria-label="Evaluations">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 className="text-sm font-semibold text-zinc-900">Evaluations</h2>
          <p className="text-xs text-zinc-500">
            Online evaluators&apos; scores of this run{runId !== rootRunId ? "'s tree (scored by its root run)" : ""}
            {low ? ": low-scored" : ""}
          </p>
        </div>
        {canAddToDataset && evaluations.some((e) => e.status === "scored") ? <AddToDatasetDialog runIds={[rootRunId]} label={low ? "Add low-scored run to dataset" : "Add to dataset"} /> : null}
      </div>
      {query.error ? <p className="text-sm text-red-700">{query.error.message}</p> : null}
      {evaluations.map((evaluation) => (
        <EvaluationBlock key={evaluation.evaluatorId} evaluation={evaluation} />
      ))}
    </Card>
  );
}
