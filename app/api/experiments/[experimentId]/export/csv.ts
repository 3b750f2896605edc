// The experiment's CSV: one line per (item, target) with usage, each scorer's
// value, pass and detail, and the change against the first target. Built page by
// page so the route can stream 100,000-unit experiments; results arrive item by
// item (all targets of an item are consecutive), so the baseline is at hand.
import type { ExperimentResultRow, ExperimentSummary } from "@/lib/experiments/schemas";
import { scorerName } from "@/lib/experiments/scoring/types";
import { csvField } from "@/lib/inbox/server/audit";
import { classify } from "@/components/experiments/compare-model";

export function csvHeader(experiment: Pick<ExperimentSummary, "scorers">): string {
  const scorerColumns = experiment.scorers.map(scorerName).flatMap((name) => [name, `${name}_pass`, `${name}_detail`]);
  const columns = ["position", "item_id", "task", "tags", "target_index", "target", "run_id", "status", "latency_ms", "input_tokens", "output_tokens", "cost_usd", ...scorerColumns, "change_vs_baseline", "change_reasons"];
  return `${columns.map(csvField).join(",")}\r\n`;
}

function line(experiment: Pick<ExperimentSummary, "targets" | "scorers">, result: ExperimentResultRow, baseline: ExperimentResultRow | undefined): string {
  const byName = new Map(result.scores.map((score) => [score.scorer, score]));
  const scoreCells = experiment.scorers.map(scorerName).flatMap((name) => {
    const score = byName.get(name);
    if (!score) return ["", "", ""];
    return [String(score.value), score.pass === null ? "" : String(score.pass), score.detail];
  });
  const change = result.targetIndex === 0 ? { change: "baseline", reasons: [] } : classify(baseline, result, "all");
  const cells = [
    String(result.position),
    result.itemId,
    result.task,
    result.tags.join(", "),
    String(result.targetIndex),
    experiment.targets[result.targetIndex]?.label ?? "",
    result.runId ?? "",
    result.status,
    String(result.latencyMs),
    String(result.inputTokens),
    String(result.outputTokens),
    String(result.costUsd),
    ...scoreCells,
    change.change,
    change.reasons.join("; "),
  ];
  return `${cells.map(csvField).join(",")}\r\n`;
}

/**
 * Lines for a page of results. `carry` is the baseline result of the item the
 * previous page ended in (an item's targets may straddle two pages).
 */
export function csvLines(
  experiment: Pick<ExperimentSummary, "targets" | "scorers">,
  results: ExperimentResultRow[],
  carry: ExperimentResultRow | undefined,
): { text: string; carry: ExperimentResultRow | undefined } {
  let baseline = carry;
  let text = "";
  for (const result of results) {
    if (result.targetIndex === 0) baseline = result;
    else if (baseline && baseline.itemId !== result.itemId) baseline = undefined;
    text += line(experiment, result, baseline?.itemId === result.itemId ? baseline : undefined);
  }
  return { text, carry: baseline };
}

/** A file name from the experiment's name: letters, digits and dashes only. */
export function csvFileName(experiment: Pick<ExperimentSummary, "id" | "name">): string {
  const slug = experiment.name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60);
  return `${slug ? `${slug}-` : ""}${experiment.id}.csv`;
}
