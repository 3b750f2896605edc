// The experiment CLI's arguments and exit codes, and the per-target summary it
// prints: a missed threshold is named and exits 1, bad arguments exit 2.
import { describe, expect, it } from "vitest";
import { main, parseCommandLine, parseScorer } from "./experiment";
import { formatSummary, missedThresholds, summarizeExperiment } from "../lib/experiments/report";
import type { ExperimentDetail } from "../lib/experiments/schemas";

const base = ["--dataset", "refunds", "--graph", "support-triage", "--versions", "3,4"];

describe("parseCommandLine", () => {
  it("builds the start input: one target per version, the scorers, thresholds keyed by the scorer's name", () => {
    const parsed = parseCommandLine([...base, "--scorer", "exact", "--scorer", "trajectory:unordered", "--threshold", "exact=0.8", "--threshold", "trajectory:unordered=0.5", "--concurrency", "8"], {});
    expect(parsed).toMatchObject({
      ok: true,
      server: "http://127.0.0.1:3000",
      input: {
        dataset: "refunds",
        targets: [
          { graph: "support-triage", version: 3 },
          { graph: "support-triage", version: 4 },
        ],
        scorers: [{ kind: "exact" }, { kind: "trajectory", order: "unordered", arguments: "subset" }],
        thresholds: { exact: 0.8, "trajectory:unordered/subset": 0.5 },
        concurrency: 8,
      },
    });
  });

  it("defaults to the exact scorer and takes the server from ZAP_URL", () => {
    expect(parseCommandLine(base, { ZAP_URL: "https://zap.example.com" })).toMatchObject({ ok: true, server: "https://zap.example.com", input: { scorers: [{ kind: "exact" }] } });
  });

  it.each([
    [["--graph", "g", "--versions", "1"], "--dataset is required"],
    [["--dataset", "d", "--versions", "1"], "--graph is required"],
    [["--dataset", "d", "--graph", "g"], "--versions is required"],
    [[...base.slice(0, 4), "--versions", "3,x"], '"x" is not a version number'],
    [[...base, "--scorer", "fuzzy"], '--scorer "fuzzy" is not a scorer'],
    [[...base, "--threshold", "exact=2"], '--threshold "exact=2"'],
    [[...base, "--concurrency", "0"], "--concurrency"],
    [[...base, "--approvals", "maybe"], "--approvals is reject or approve"],
    [[...base, "--bogus"], "Unknown option '--bogus'"],
    [[...base, "--api-key", "zap_x"], "--api-key is not taken"],
  ])("refuses %j naming the problem", (argv, message) => {
    const parsed = parseCommandLine(argv, {});
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toContain(message);
  });

  it("parses every scorer flag", () => {
    expect(parseScorer("trajectory:strict")).toEqual({ kind: "trajectory", order: "strict", arguments: "exact" });
    expect(parseScorer("trajectory:strict/ignore")).toEqual({ kind: "trajectory", order: "strict", arguments: "ignore" });
    expect(parseScorer("judge:cites the order id")).toEqual({ kind: "judge", rubric: "cites the order id" });
    expect(parseScorer("custom:no-tool-errors")).toEqual({ kind: "custom", name: "no-tool-errors" });
    expect(parseScorer("latency:5000")).toEqual({ kind: "latency", maxMs: 5000 });
    expect(parseScorer("cost:0.5")).toEqual({ kind: "cost", maxUsd: 0.5 });
    expect(parseScorer("recorded")).toEqual({ kind: "recorded" });
    expect(parseScorer("recorded:yes")).toBeNull();
    expect(parseScorer("latency:-1")).toBeNull();
    expect(parseScorer("exact:yes")).toBeNull();
  });
});

function detail(values: [number, number][]): ExperimentDetail {
  return {
    experiment: {
      id: "exp_12345678",
      name: "t",
      dataset: { id: "ds_12345678", name: "refunds", version: 1 },
      targets: [
        { label: "g v3", graphName: "g", version: 3 },
        { label: "g v4", graphName: "g", version: 4 },
      ],
      scorers: [{ kind: "exact" }],
      thresholds: { exact: 0.8 },
      status: "completed",
      progress: { total: values.length * 2, done: values.length * 2, failed: 0 },
      concurrency: 4,
      createdAt: new Date(0).toISOString(),
      createdBy: null,
    },
    results: values.flatMap(([a, b], i) =>
      [a, b].map((value, targetIndex) => ({
        itemId: `dsi_item-${i}`,
        position: i + 1,
        task: "t",
        tags: [],
        targetIndex,
        runId: `r-${i}-${targetIndex}`,
        status: "scored" as const,
        scores: [{ scorer: "exact", value, pass: value === 1, detail: "" }],
        latencyMs: 1,
        inputTokens: 0,
        outputTokens: 0,
        costUsd: 0,
      })),
    ),
    nextCursor: null,
  };
}

describe("the summary", () => {
  it("names the target whose mean misses the threshold", () => {
    const summary = summarizeExperiment(detail([[1, 1], [1, 0], [1, 0], [1, 1], [1, 1]]));
    expect(summary.map((t) => t.scorers[0]?.mean)).toEqual([1, 0.6]);
    expect(missedThresholds(summary)).toEqual(["g v4: exact mean 0.60 < 0.80"]);
    expect(formatSummary(summary)).toContain("MISSED");
  });
});

describe("main", () => {
  it("exits 2 on bad arguments and without an API key, before calling any server", async () => {
    const err: string[] = [];
    const io = { env: {}, out: () => undefined, err: (l: string) => err.push(l) };
    expect(await main(["--graph", "g"], io)).toBe(2);
    expect(err[0]).toContain("--dataset is required");
    expect(await main(base, io)).toBe(2);
    expect(err.join("\n")).toContain("no API key");
  });
});
