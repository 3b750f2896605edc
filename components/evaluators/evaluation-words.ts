// An evaluation's status and source in words, one wording for the run page and
// the /evaluators page (lib/online-eval/schemas.ts EVALUATION_STATUSES).
import type { EvaluationStatus } from "@/lib/online-eval/schemas";

export const STATUS_WORDS: Record<EvaluationStatus, string> = {
  pending: "waiting to score",
  scored: "scored",
  skipped_sampling: "not in the sample",
  skipped_cap: "skipped: daily spend cap reached",
  failed: "failed",
};

export const STATUS_TONES: Record<EvaluationStatus, "neutral" | "success" | "warning" | "danger" | "info"> = {
  pending: "info",
  scored: "success",
  skipped_sampling: "neutral",
  skipped_cap: "warning",
  failed: "danger",
};

/** "live", or the backfill that scored it. */
export function sourceWords(source: string): string {
  return source === "live" ? "live" : `backfill ${source}`;
}

/** Below this mean a run is called low-scored: the run page offers it for a dataset first. */
export const LOW_SCORE = 0.5;
