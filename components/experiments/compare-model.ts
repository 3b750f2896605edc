// The compare view's model, computed from an experiment's result rows: one row
// per item with one cell per target, each non-baseline cell classed against the
// first target (the baseline), and a summary per target with 95 % intervals.
// Pure, so it is unit-tested and shared by the page and its CSV twin.
import type { ExperimentResultRow, ExperimentSummary } from "@/lib/experiments/schemas";
import type { Score } from "@/lib/experiments/scoring/types";
import { meanInterval, pairedDeltaInterval, wilsonInterval, type Interval } from "@/lib/experiments/stats";

/** Which scorer decides regressions: all of them (any one regressing counts) or one by name. */
export type ScorerFocus = "all" | string;

export type Change = "regressed" | "improved" | "same" | "baseline" | "pending";

export interface CompareCell {
  result: ExperimentResultRow | undefined;
  change: Change;
  /** Why the cell regressed or improved, one phrase per scorer ("exact: pass → fail"). */
  reasons: string[];
  /** The shown value: the focused scorer's value, or the mean of the cell's scores. Null while not scored. */
  value: number | null;
}

export interface CompareRow {
  itemId: string;
  position: number;
  task: string;
  tags: string[];
  cells: CompareCell[];
  regressed: boolean;
  improved: boolean;
}

export interface ScorerSummary {
  scorer: string;
  mean: Interval | null;
  passRate: Interval | null;
  passes: number;
  decided: number;
  /** Mean change from the baseline over the items scored on both (paired), with its 95 % interval; null for the baseline. */
  delta: Interval | null;
}

export interface TargetSummary {
  targetIndex: number;
  label: string;
  scored: number;
  failed: number;
  pending: number;
  scorers: ScorerSummary[];
  latencyMs: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Items that regressed / improved against the baseline (null for the baseline itself). */
  regressions: number | null;
  improvements: number | null;
}

/** Value changes smaller than this are noise (floating point, rounding in a judge's reply). */
const VALUE_EPSILON = 0.001;

function scoresFor(result: ExperimentResultRow, focus: ScorerFocus): Score[] {
  return focus === "all" ? result.scores : result.scores.filter((score) => score.scorer === focus);
}

export function cellValue(result: ExperimentResultRow | undefined, focus: ScorerFocus): number | null {
  if (!result || result.status !== "scored") return null;
  const scores = scoresFor(result, focus);
  if (scores.length === 0) return null;
  return scores.reduce((sum, score) => sum + score.value, 0) / scores.length;
}

/**
 * A cell against the baseline's cell for the same item. Per scorer: a pass that
 * became a fail regressed (and the reverse improved); when either side is
 * undecided (pass null) the value decides. A run that failed where the
 * baseline's was scored regressed; the reverse improved.
 */
export function classify(base: ExperimentResultRow | undefined, cell: ExperimentResultRow | undefined, focus: ScorerFocus): { change: Change; reasons: string[] } {
  const finished = (r: ExperimentResultRow | undefined) => r !== undefined && (r.status === "scored" || r.status === "failed");
  if (!finished(base) || !finished(cell) || !base || !cell) return { change: "pending", reasons: [] };
  if (base.status === "scored" && cell.status === "failed") return { change: "regressed", reasons: ["the run failed"] };
  if (base.status === "failed" && cell.status === "scored") return { change: "improved", reasons: ["the baseline's run failed"] };
  if (base.status === "failed") return { change: "same", reasons: [] };
  const regressed: string[] = [];
  const improved: string[] = [];
  const baseScores = new Map(scoresFor(base, focus).map((score) => [score.scorer, score]));
  for (const score of scoresFor(cell, focus)) {
    const before = baseScores.get(score.scorer);
    if (!before) continue;
    if (before.pass !== null && score.pass !== null) {
      if (before.pass && !score.pass) regressed.push(`${score.scorer}: pass → fail`);
      else if (!before.pass && score.pass) improved.push(`${score.scorer}: fail → pass`);
    } else if (score.value < before.value - VALUE_EPSILON) {
      regressed.push(`${score.scorer}: ${before.value.toFixed(2)} → ${score.value.toFixed(2)}`);
    } else if (score.value > before.value + VALUE_EPSILON) {
      improved.push(`${score.scorer}: ${before.value.toFixed(2)} → ${score.value.toFixed(2)}`);
    }
  }
  if (regressed.length > 0) return { change: "regressed", reasons: [...regressed, ...improved] };
  if (improved.length > 0) return { change: "improved", reasons: improved };
  return { change: "same", reasons: [] };
}

/** Rows in item order, one cell per target. */
export function buildRows(experiment: Pick<ExperimentSummary, "targets">, results: ExperimentResultRow[], focus: ScorerFocus): CompareRow[] {
  const targets = experiment.targets.length;
  const byItem = new Map<string, { itemId: string; position: number; task: string; tags: string[]; results: (ExperimentResultRow | undefined)[] }>();
  for (const result of results) {
    let entry = byItem.get(result.itemId);
    if (!entry) {
      entry = { itemId: result.itemId, position: result.position, task: result.task, tags: result.tags, results: new Array<ExperimentResultRow | undefined>(targets).fill(undefined) };
      byItem.set(result.itemId, entry);
    }
    if (result.targetIndex >= 0 && result.targetIndex < targets) entry.results[result.targetIndex] = result;
  }
  return [...byItem.values()]
    .sort((a, b) => a.position - b.position)
    .map((entry) => {
      const base = entry.results[0];
      const cells = entry.results.map((result, index): CompareCell => {
        const value = cellValue(result, focus);
        if (index === 0) return { result, change: result && (result.status === "scored" || result.status === "failed") ? "baseline" : "pending", reasons: [], value };
        return { result, value, ...classify(base, result, focus) };
      });
      return {
        itemId: entry.itemId,
        position: entry.position,
        task: entry.task,
        tags: entry.tags,
        cells,
        regressed: cells.some((cell) => cell.change === "regressed"),
        improved: cells.some((cell) => cell.change === "improved"),
      };
    });
}

/** [baseline value, target value] of one scorer for each item scored on both. */
function pairedValues(rows: CompareRow[], targetIndex: number, scorer: string): [number, number][] {
  const valueOf = (cell: CompareCell | undefined) =>
    cell?.result?.status === "scored" ? cell.result.scores.find((score) => score.scorer === scorer)?.value : undefined;
  return rows.flatMap((row): [number, number][] => {
    const base = valueOf(row.cells[0]);
    const target = valueOf(row.cells[targetIndex]);
    return base === undefined || target === undefined ? [] : [[base, target]];
  });
}

/** Per target: scorer means and pass rates with 95 % intervals, usage totals, regressions and improvements against the baseline. */
export function summarize(experiment: Pick<ExperimentSummary, "targets" | "scorers">, results: ExperimentResultRow[], rows: CompareRow[], scorerNames: string[]): TargetSummary[] {
  return experiment.targets.map((target, targetIndex) => {
    const mine = results.filter((result) => result.targetIndex === targetIndex);
    const scored = mine.filter((result) => result.status === "scored");
    const scorers = scorerNames.map((scorer): ScorerSummary => {
      const scores = scored.flatMap((result) => result.scores.filter((score) => score.scorer === scorer));
      const decided = scores.filter((score) => score.pass !== null);
      const passes = decided.filter((score) => score.pass === true).length;
      const delta = targetIndex === 0 ? null : pairedDeltaInterval(pairedValues(rows, targetIndex, scorer));
      return { scorer, mean: meanInterval(scores.map((score) => score.value)), passRate: wilsonInterval(passes, decided.length), passes, decided: decided.length, delta };
    });
    const sum = (pick: (result: ExperimentResultRow) => number) => mine.reduce((total, result) => total + pick(result), 0);
    return {
      targetIndex,
      label: target.label,
      scored: scored.length,
      failed: mine.filter((result) => result.status === "failed").length,
      pending: mine.filter((result) => result.status === "pending" || result.status === "running").length,
      scorers,
      latencyMs: sum((result) => result.latencyMs),
      inputTokens: sum((result) => result.inputTokens),
      outputTokens: sum((result) => result.outputTokens),
      costUsd: sum((result) => result.costUsd),
      regressions: targetIndex === 0 ? null : rows.filter((row) => row.cells[targetIndex]?.change === "regressed").length,
      improvements: targetIndex === 0 ? null : rows.filter((row) => row.cells[targetIndex]?.change === "improved").length,
    };
  });
}

/** Scorer names in configured order, then any others the results carry. */
export function scorerNamesOf(configured: string[], results: ExperimentResultRow[]): string[] {
  const names = [...configured];
  for (const result of results) for (const score of result.scores) if (!names.includes(score.scorer)) names.push(score.scorer);
  return names;
}

export type RowFilter = "all" | "regressions" | "improvements";

export function filterRows(rows: CompareRow[], filter: RowFilter, tag: string | null): CompareRow[] {
  return rows.filter((row) => (filter === "all" || (filter === "regressions" ? row.regressed : row.improved)) && (tag === null || row.tags.includes(tag)));
}

/** The run pair the row's diff link opens: the baseline against the first regressed target, else the first improved, else the second target. */
export function diffPair(row: CompareRow): { a: string; b: string } | null {
  const base = row.cells[0]?.result?.runId;
  if (!base) return null;
  const others = row.cells.slice(1);
  const pick = others.find((cell) => cell.change === "regressed") ?? others.find((cell) => cell.change === "improved") ?? others[0];
  const b = pick?.result?.runId;
  return b ? { a: base, b } : null;
}
