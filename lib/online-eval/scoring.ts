// The pure parts of scoring a live run: what the experiments' scorers compare it
// with (the evaluator's expectations, the run's own task), what a guardrail check
// reads (the task or the final answer), how a verdict becomes a score (1 passes,
// 0 trips) and the evaluation's mean. Browser-safe and side-effect free.
import type { GuardrailVerdict } from "../guardrails/schemas";
import type { ObservedRun, Score, ScoredItem } from "../experiments/scoring/types";
import { evaluatorCheckName, type EvaluationScoreView, type EvaluatorCheck, type EvaluatorExpectations } from "./schemas";

/** The "dataset item" a live run is scored against: its own task, the evaluator's expectations. */
export function scoredItemOf(task: string, expectations: EvaluatorExpectations): ScoredItem {
  return {
    input: { task },
    expected: {
      ...(expectations.output !== undefined ? { output: expectations.output } : {}),
      ...(expectations.outputData !== undefined ? { outputData: expectations.outputData } : {}),
      ...(expectations.routing ? { routing: expectations.routing } : {}),
    },
  };
}

/** The text a guardrail check of an evaluator reads: the run's task, or its final answer (typed answers as JSON). */
export function guardrailTextOf(on: "input" | "output", run: Pick<ObservedRun, "output" | "outputData">, task: string): string {
  if (on === "input") return task;
  if (run.output !== null) return run.output;
  return run.outputData === null || run.outputData === undefined ? "" : JSON.stringify(run.outputData);
}

/** A guardrail verdict as a score: 1 when the text passes, 0 when it trips. */
export function guardrailScore(check: Extract<EvaluatorCheck, { source: "guardrail" }>, verdict: GuardrailVerdict): Score {
  return { scorer: evaluatorCheckName(check), value: verdict.tripped ? 0 : 1, pass: !verdict.tripped, detail: verdict.reason.slice(0, 1_000) };
}

/** The mean of the scores that decided (pass not null); null when none did. */
export function meanScoreOf(scores: readonly Pick<EvaluationScoreView, "value" | "pass">[]): number | null {
  const decided = scores.filter((score) => score.pass !== null);
  if (!decided.length) return null;
  return decided.reduce((sum, score) => sum + score.value, 0) / decided.length;
}
