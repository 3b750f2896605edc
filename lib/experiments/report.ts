// An experiment's results per target: the mean and pass count of each scorer,
// and the thresholds each target meets or misses (the CLI's table and exit
// code). Browser-safe and pure.
import type { ExperimentDetail } from "./schemas";
import { scorerName } from "./scoring/types";

export interface ScorerSummary {
  scorer: string;
  /** Mean value over the target's scored units (null when none scored). */
  mean: number | null;
  passed: number;
  /** Units whose score decided pass or fail (a judge reply that could not be read decides nothing). */
  decided: number;
  threshold: number | null;
  /** Whether the mean meets the threshold (null without one). A target with no scored unit misses every threshold. */
  met: boolean | null;
}

export interface TargetSummary {
  label: string;
  units: number;
  scored: number;
  failed: number;
  scorers: ScorerSummary[];
}

export function summarizeExperiment(detail: ExperimentDetail): TargetSummary[] {
  const { experiment, results } = detail;
  const names = experiment.scorers.map(scorerName);
  return experiment.targets.map((target, targetIndex) => {
    const mine = results.filter((r) => r.targetIndex === targetIndex);
    const scored = mine.filter((r) => r.status === "scored");
    return {
      label: target.label,
      units: mine.length,
      scored: scored.length,
      failed: mine.filter((r) => r.status === "failed").length,
      scorers: names.map((name) => {
        const scores = scored.flatMap((r) => r.scores.filter((s) => s.scorer === name));
        const mean = scores.length ? scores.reduce((sum, s) => sum + s.value, 0) / scores.length : null;
        const threshold = experiment.thresholds[name] ?? null;
        return {
          scorer: name,
          mean,
          passed: scores.filter((s) => s.pass === true).length,
          decided: scores.filter((s) => s.pass !== null).length,
          threshold,
          met: threshold === null ? null : mean !== null && mean >= threshold,
        };
      }),
    };
  });
}

/** One sentence per missed threshold: "support-triage v4: exact mean 0.60 < 0.80". */
export function missedThresholds(summary: TargetSummary[]): string[] {
  return summary.flatMap((target) =>
    target.scorers
      .filter((s) => s.met === false)
      .map((s) => `${target.label}: ${s.scorer} mean ${s.mean === null ? "n/a (nothing scored)" : s.mean.toFixed(2)} < ${s.threshold?.toFixed(2)}`),
  );
}

const pad = (text: string, width: number) => text.padEnd(width);

/** The CLI's table: one block per target. */
export function formatSummary(summary: TargetSummary[]): string {
  const width = Math.max(12, ...summary.flatMap((t) => t.scorers.map((s) => s.scorer.length))) + 2;
  return summary
    .map((target) => {
      const head = `${target.label}  (${target.scored} of ${target.units} scored${target.failed ? `, ${target.failed} failed` : ""})`;
      const columns = `  ${pad("scorer", width)}${pad("mean", 8)}${pad("pass", 10)}threshold`;
      const rows = target.scorers.map((s) => {
        const mean = s.mean === null ? "—" : s.mean.toFixed(2);
        const pass = s.decided ? `${s.passed}/${s.decided}` : "—";
        const threshold = s.threshold === null ? "" : `≥ ${s.threshold.toFixed(2)} ${s.met ? "ok" : "MISSED"}`;
        return `  ${pad(s.scorer, width)}${pad(mean, 8)}${pad(pass, 10)}${threshold}`;
      });
      return [head, columns, ...rows].join("\n");
    })
    .join("\n\n");
}
