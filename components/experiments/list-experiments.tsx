"use client";
// The experiments table: name (to the experiment's page), dataset version,
// targets, status and progress (done of total units, failed ones named).
import Link from "@/components/ui/link";
import type { ExperimentSummary } from "@/lib/experiments/schemas";
import { Badge } from "@/components/ui/badge";
import { DateTime } from "@/components/ui/date-time";

const TONES = { running: "info", completed: "success", cancelled: "warning", failed: "danger" } as const;

export function progressPercent(experiment: ExperimentSummary): number {
  const { total, done } = experiment.progress;
  return total === 0 ? 100 : Math.floor((done / total) * 100);
}

export function ExperimentProgress({ experiment }: { experiment: ExperimentSummary }) {
  const percent = progressPercent(experiment);
  const { done, total, failed } = experiment.progress;
  return (
    <div className="w-48">
      <div
        role="progressbar"
        aria-label={`Progress of ${experiment.name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 overflow-hidden rounded bg-zinc-100"
      >
        <div className="h-full bg-indigo-600" style={{ width: `${percent}%` }} />
      </div>
      <p className="mt-1 text-xs text-zinc-500" data-testid="experiment-progress-text">
        {`${percent} % · ${done} of ${total}${failed ? ` · ${failed} failed` : ""}`}
      </p>
    </div>
  );
}

export function ExperimentsTable({ experiments }: { experiments: ExperimentSummary[] }) {
  if (experiments.length === 0) return <p className="px-5 py-6 text-sm text-zinc-500">No experiments yet.</p>;
  return (
    <table className="min-w-full divide-y divide-zinc-200 text-sm" aria-label="Experiments">
      <thead className="bg-zinc-50 text-left text-xs font-medium uppercase tracking-wide text-zinc-500">
        <tr>
          <th className="px-5 py-2">Experiment</th>
          <th className="px-3 py-2">Dataset</th>
          <th className="px-3 py-2">Targets</th>
          <th className="px-3 py-2">Status</th>
          <th className="px-3 py-2">Progress</th>
          <th className="px-3 py-2">Started</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-zinc-100">
        {experiments.map((e) => (
          <tr key={e.id} data-testid={`experiment-${e.id}`}>
            <td className="px-5 py-2">
              <Link className="font-medium text-indigo-700 hover:underline" href={`/experiments/${e.id}`}>
                {e.name}
              </Link>
            </td>
            <td className="px-3 py-2">{`${e.dataset.name} v${e.dataset.version}`}</td>
            <td className="px-3 py-2">{e.targets.map((t) => t.label).join(", ")}</td>
            <td className="px-3 py-2">
              <Badge tone={TONES[e.status]}>{e.status}</Badge>
            </td>
            <td className="px-3 py-2">
              <ExperimentProgress experiment={e} />
            </td>
            <td className="px-3 py-2 text-zinc-500"><DateTime value={e.createdAt} />{e.createdBy ? ` by ${e.createdBy}` : ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
