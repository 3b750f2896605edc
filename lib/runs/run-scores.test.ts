// The runs list's score filter and column: which evaluations a filter selects,
// and a run's score from its evaluations.
import { describe, expect, it } from "vitest";
import { runFiltersSchema } from "./schemas";
import { formatScore } from "../format/figures";
import { hasScoreFilter, runScores, scoreFilterWhere, scoreTitle } from "./run-scores";

describe("the runs list's score filter", () => {
  it("reads the query string: an evaluator's name and bounds 0..1, refusing anything else", () => {
    expect(runFiltersSchema.parse({ evaluator: "support-quality", scoreBelow: "0.8" })).toMatchObject({ evaluator: "support-quality", scoreBelow: 0.8 });
    expect(runFiltersSchema.safeParse({ scoreBelow: "1.5" }).success, "a score is at most 1").toBe(false);
    expect(runFiltersSchema.safeParse({ scoreAtLeast: "-0.1" }).success, "a score is at least 0").toBe(false);
    expect(runFiltersSchema.safeParse({ evaluator: "Not A Name" }).success, "an evaluator's name is lowercase").toBe(false);
  });

  it("narrows nothing when no score field is set", () => {
    expect(hasScoreFilter({})).toBe(false);
    expect(hasScoreFilter({ evaluator: "x" })).toBe(true);
    expect(hasScoreFilter({ scoreAtLeast: 0 }), "a bound of 0 still narrows (to scored runs)").toBe(true);
  });

  it("selects scored evaluations only, of the evaluator, with the mean inside the bounds", () => {
    expect(scoreFilterWhere({ evaluator: "support-quality" })).toEqual({ status: "scored", evaluator: { name: "support-quality" } });
    expect(scoreFilterWhere({ evaluator: "support-quality", scoreBelow: 0.8 })).toEqual({ status: "scored", evaluator: { name: "support-quality" }, meanScore: { not: null, lt: 0.8 } });
    expect(scoreFilterWhere({ scoreAtLeast: 0.5, scoreBelow: 0.9 }), "without an evaluator: any evaluator's mean").toEqual({ status: "scored", meanScore: { not: null, gte: 0.5, lt: 0.9 } });
    expect(scoreFilterWhere({ scoreBelow: 0 }).meanScore, "a bound of 0 is a bound").toEqual({ not: null, lt: 0 });
  });
});

describe("a run's score", () => {
  it("is the mean of its evaluators' means, leaving out an evaluation no check decided", () => {
    const scores = runScores([
      { runId: "r1", evaluator: "tone", meanScore: 1 },
      { runId: "r1", evaluator: "accuracy", meanScore: 0.5 },
      { runId: "r1", evaluator: "undecided", meanScore: null },
      { runId: "r2", evaluator: "tone", meanScore: null },
    ]);
    expect(scores.get("r1")).toEqual({ mean: 0.75, byEvaluator: [{ evaluator: "accuracy", meanScore: 0.5 }, { evaluator: "tone", meanScore: 1 }] });
    expect(scores.has("r2"), "a run no check decided has no score (not a zero)").toBe(false);
  });

  it("is written with two decimals, each evaluator on its own line of the title", () => {
    expect(formatScore(0.756)).toBe("0.76");
    expect(formatScore(null)).toBe("—");
    expect(scoreTitle({ byEvaluator: [{ evaluator: "accuracy", meanScore: 0.5 }, { evaluator: "tone", meanScore: 1 }] })).toBe("accuracy: 0.50\ntone: 1.00");
  });
});
