// The overview's evaluation scores: each evaluator's mean per bucket, split by
// version or label, and the query the card sends.
import { describe, expect, it } from "vitest";
import { bucketScores, scoreSeriesQuerySchema, scoreStepSeconds, splitKey } from "./score-series";
import { MONITOR_SERIES, monitorCreateSchema } from "../monitors/schemas";

const from = new Date("2026-11-30T00:00:00Z");
const to = new Date("2026-11-30T01:00:00Z");
const at = (minutes: number) => new Date(from.getTime() + minutes * 60_000);

describe("evaluation score series", () => {
  it("buckets by when the run ended, one line per evaluator and version, with each bucket's mean and count", () => {
    const series = bucketScores(
      [
        { evaluator: "quality", version: 2, label: "production", meanScore: 1, runEndedAt: at(0) },
        { evaluator: "quality", version: 2, label: "production", meanScore: 0.5, runEndedAt: at(0.5) },
        { evaluator: "quality", version: 3, label: "production", meanScore: 0.2, runEndedAt: at(59) },
        { evaluator: "quality", version: 3, label: null, meanScore: 0.4, runEndedAt: at(60) },
      ],
      { from, to, split: "version" },
    );
    expect(series.stepSeconds).toBe(scoreStepSeconds(from.getTime(), to.getTime()));
    expect(series.buckets).toHaveLength(60);
    expect(series.lines.map((l) => [l.evaluator, l.key, l.scored, l.mean])).toEqual([
      ["quality", "v2", 2, 0.75],
      ["quality", "v3", 1, 0.2],
    ]);
    expect(series.lines[0]?.means[0]).toBe(0.75);
    expect(series.lines[0]?.means[1], "a bucket with nothing scored is empty, not zero").toBeNull();
    expect(series.lines[1]?.counts[59]).toBe(1);
  });

  it("splits by label when asked, runs started without one under none", () => {
    expect(splitKey({ version: 3, label: null }, "label")).toBe("none");
    expect(splitKey({ version: null, label: "canary" }, "version")).toBe("none");
    const series = bucketScores(
      [
        { evaluator: "quality", version: 2, label: "production", meanScore: 1, runEndedAt: at(1) },
        { evaluator: "quality", version: 3, label: null, meanScore: 0, runEndedAt: at(2) },
      ],
      { from, to, split: "label" },
    );
    expect(series.lines.map((l) => l.key)).toEqual(["none", "production"]);
  });

  it("takes a range of at most 31 days that ends after it starts", () => {
    expect(scoreSeriesQuerySchema.parse({ from: from.toISOString(), to: to.toISOString() })).toMatchObject({ split: "version" });
    expect(scoreSeriesQuerySchema.safeParse({ from: to.toISOString(), to: from.toISOString() }).success).toBe(false);
    expect(scoreSeriesQuerySchema.safeParse({ from: "2026-01-01T00:00:00Z", to: "2026-03-01T00:00:00Z" }).success).toBe(false);
    expect(scoreSeriesQuerySchema.safeParse({ from: from.toISOString(), to: to.toISOString(), split: "model" }).success).toBe(false);
  });
});

describe("the evaluator_score monitor series", () => {
  const valid = { name: "Quality", series: "evaluator_score", label: "quality", comparator: "lt", threshold: 0.8, windowMinutes: 60 } as const;
  const paths = (result: { error?: { issues: { path: PropertyKey[] }[] } }) => (result.error?.issues ?? []).map((issue) => issue.path.join("."));

  it("is a gauge named by its label, the evaluator, filtered by graph and version only", () => {
    expect(MONITOR_SERIES.evaluator_score).toMatchObject({ kind: "gauge", labelMeaning: "evaluator" });
    expect(monitorCreateSchema.safeParse({ ...valid, filters: { graph: "support-triage", version: 2 } }).success).toBe(true);
    expect(paths(monitorCreateSchema.safeParse({ ...valid, label: null }))).toEqual(["label"]);
    expect(paths(monitorCreateSchema.safeParse({ ...valid, stat: "rate" }))).toEqual(["stat"]);
    expect(new Set(paths(monitorCreateSchema.safeParse({ ...valid, filters: { tool: "t", startedBy: "a@b.c" } })))).toEqual(new Set(["filters.tool", "filters.startedBy"]));
  });
});
