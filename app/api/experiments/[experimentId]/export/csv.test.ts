import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import type { ExperimentResultRow } from "@/lib/experiments/schemas";
import { csvFileName, csvHeader, csvLines } from "./csv";

const experiment = {
  id: "exp_abcdefgh",
  name: "Refunds: v1 vs v2!",
  targets: [
    { label: "refunds v1", graphName: "refunds", version: 1 },
    { label: "refunds v2", graphName: "refunds", version: 2 },
  ],
  scorers: [{ kind: "exact" as const }, { kind: "trajectory" as const, order: "strict" as const, arguments: "subset" as const }],
};

function row(itemId: string, targetIndex: number, exactPass: boolean, extra: Partial<ExperimentResultRow> = {}): ExperimentResultRow {
  return {
    itemId,
    position: Number(itemId.slice(1)),
    task: `task ${itemId}`,
    tags: ["billing", "eu"],
    targetIndex,
    runId: `run-${itemId}-${targetIndex}`,
    status: "scored",
    scores: [
      { scorer: "exact", value: exactPass ? 1 : 0, pass: exactPass, detail: exactPass ? "equal" : 'expected "a", got "b"' },
      { scorer: "trajectory:strict/subset", value: 0.5, pass: null, detail: "undecided" },
    ],
    latencyMs: 120,
    inputTokens: 40,
    outputTokens: 8,
    costUsd: 0.0001,
    ...extra,
  };
}

function parseCsv(text: string): Record<string, string>[] {
  return parse(text, { columns: true }) as Record<string, string>[];
}

describe("experiment CSV", () => {
  it("one line per item and target with scores and the change against the baseline", () => {
    const { text } = csvLines(experiment, [row("i1", 0, true), row("i1", 1, false), row("i2", 0, false), row("i2", 1, true)], undefined);
    const records = parseCsv(csvHeader(experiment) + text);
    expect(records).toHaveLength(4);
    expect(records[1]).toMatchObject({
      position: "1",
      item_id: "i1",
      target: "refunds v2",
      run_id: "run-i1-1",
      exact: "0",
      exact_pass: "false",
      exact_detail: 'expected "a", got "b"',
      "trajectory:strict/subset_pass": "",
      tags: "billing, eu",
      change_vs_baseline: "regressed",
      change_reasons: "exact: pass → fail",
    });
    expect(records[0]?.change_vs_baseline).toBe("baseline");
    expect(records[3]?.change_vs_baseline).toBe("improved");
  });

  it("keeps the baseline across a page boundary inside one item", () => {
    const first = csvLines(experiment, [row("i1", 0, true)], undefined);
    const second = csvLines(experiment, [row("i1", 1, false)], first.carry);
    expect(parseCsv(csvHeader(experiment) + first.text + second.text)[1]?.change_vs_baseline).toBe("regressed");
  });

  it("neutralizes formulas in model-written cells (= + - @) and quotes commas, quotes and newlines", () => {
    const evil = row("i1", 0, true, { task: '=HYPERLINK("http://x","click")', tags: ["@admin"], scores: [{ scorer: "exact", value: 1, pass: true, detail: "-2+3\nnext line" }] });
    const { text } = csvLines(experiment, [evil], undefined);
    const record = parseCsv(csvHeader(experiment) + text)[0];
    expect(record?.task).toBe("'=HYPERLINK(\"http://x\",\"click\")");
    expect(record?.tags).toBe("'@admin");
    expect(record?.exact_detail).toBe("'-2+3\nnext line");
  });

  it("a failed run has empty score cells", () => {
    const { text } = csvLines(experiment, [row("i1", 0, true), row("i1", 1, false, { status: "failed", scores: [], runId: null })], undefined);
    expect(parseCsv(csvHeader(experiment) + text)[1]).toMatchObject({ status: "failed", exact: "", run_id: "", change_vs_baseline: "regressed", change_reasons: "the run failed" });
  });

  it("names the file after the experiment", () => {
    expect(csvFileName(experiment)).toBe("refunds-v1-vs-v2-exp_abcdefgh.csv");
    expect(csvFileName({ id: "exp_abcdefgh", name: "!!!" })).toBe("exp_abcdefgh.csv");
  });
});
