// The started_* series without a database: each top-level run is counted once,
// in the minute its row says it started, under where it is now; every state
// event moves it (−1 where it was, +1 where it goes), so the parts always add
// up to the runs started and a bar of any part lists exactly its runs.
import { describe, expect, it } from "vitest";
import { deriveIncrements, type DerivableBatch, type StartedCount, type StartedRuns } from "./derive";
import type { RunEvent } from "../contract/types";
import { EMPTY_PRICE_BOOK, priceBookOf } from "../pricing/price-book";

const ROW_START = Date.parse("2026-03-01T10:00:59.900Z");
/** Minute buckets (minutes since the epoch). */
const minuteOf = (ms: number) => Math.floor(ms / 60_000);

type Body = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, "seq" | "at"> : never) : never;
const started: Body = { type: "run_started", agentName: "a", task: "t", depth: 0 };
const completed: Body = { type: "run_completed", output: "ok" };
const followUp: Body = { type: "user_message", content: "and then?" };
const cancelled: Body = { type: "run_cancelled", message: "the run was cancelled" };
const failed: Body = { type: "run_failed", reason: "model_error", message: "boom" };

function batch(runId: string, bodies: Body[], options: { firstSeq?: number; parentRunId?: string | null; atMs?: number } = {}): DerivableBatch {
  const first = options.firstSeq ?? 1;
  const at = options.atMs ?? ROW_START + 60_000 * 5;
  return {
    run: { runId, parentRunId: options.parentRunId ?? null, graphName: "triage", agentVersionId: null, startedBy: "ann" },
    // The workflow's own start: a minute after the row's (a busy worker), which the series must not use.
    summary: { startedAt: new Date(ROW_START + 60_000).toISOString() },
    events: bodies.map((body, i) => ({ ...body, seq: first + i, at: new Date(at + i * 1000).toISOString() }) as RunEvent),
  };
}

function startedRuns(prior: Record<string, StartedCount | null> = {}, counts: (runId: string, atMs: number) => boolean = () => true): StartedRuns {
  return { startMsOf: () => ROW_START, priorOf: (id) => prior[id] ?? null, counts };
}

/** The started_* counts of some increments at minute resolution, unfiltered scope, by series and label. */
function tally(batches: DerivableBatch[], runs: StartedRuns): Record<string, number> {
  const rows = deriveIncrements(batches, { versionOf: () => 0, requestedAtOf: () => undefined, prices: EMPTY_PRICE_BOOK, started: runs }).filter(
    (r) => r.scope === 0 && r.resolution === 1 && r.series.startsWith("started_"),
  );
  for (const row of rows) expect(row.bucket, `${row.series} is counted in the minute the run's row started`).toBe(minuteOf(ROW_START));
  const out: Record<string, number> = {};
  for (const row of rows) out[`${row.series}${row.label ? `:${row.label}` : ""}`] = (out[`${row.series}${row.label ? `:${row.label}` : ""}`] ?? 0) + row.count;
  return out;
}

describe("the started_* series", () => {
  it("count a run that starts and answers once, as completed, in the minute its row started", () => {
    expect(tally([batch("r1", [started, completed])], startedRuns()), "started and completed in one pass: no row for running").toEqual({ started_completed: 1 });
  });

  it("move a run across passes: running, then completed", () => {
    expect(tally([batch("r1", [started])], startedRuns())).toEqual({ started_running: 1 });
    expect(tally([batch("r1", [completed], { firstSeq: 2 })], startedRuns({ r1: { state: "running" } }))).toEqual({ started_running: -1, started_completed: 1 });
  });

  it("take a run that answered and was then cancelled out of completed (it is counted once, as the runs list shows it)", () => {
    expect(tally([batch("r1", [cancelled], { firstSeq: 3 })], startedRuns({ r1: { state: "completed" } }))).toEqual({ started_completed: -1, started_cancelled: 1 });
  });

  it("move a follow-up back to running, and its failure out of it with the reason", () => {
    expect(tally([batch("r1", [followUp, failed], { firstSeq: 3 })], startedRuns({ r1: { state: "completed" } }))).toEqual({ started_completed: -1, "started_failed:model_error": 1 });
  });

  it("count nothing of sub-runs (the runs list lists top-level runs; their tree is the run)", () => {
    expect(tally([batch("child", [started, failed], { parentRunId: "r1" })], startedRuns())).toEqual({});
  });

  it("leave what a backfill counted to it: events before the cutoff move nothing, later ones move from where it left the run", () => {
    const cutoff = ROW_START + 60_000 * 3;
    const afterCutoff = (_: string, atMs: number) => atMs >= cutoff;
    expect(tally([batch("old", [started, completed], { atMs: cutoff - 60_000 })], startedRuns({}, afterCutoff))).toEqual({});
    expect(tally([batch("old", [followUp], { firstSeq: 3, atMs: cutoff + 1 })], startedRuns({ old: { state: "completed" } }, afterCutoff))).toEqual({ started_completed: -1, started_running: 1 });
  });

  it("always add up to one run per run started, whatever happened to them", () => {
    const histories: Body[][] = [[started], [started, completed], [started, completed, cancelled], [started, failed], [started, completed, followUp], [started, completed, followUp, completed], [started, cancelled]];
    const total: Record<string, number> = {};
    histories.forEach((history, i) => {
      // Each history written in single-event passes, each pass reading the state the previous one left.
      let prior: StartedCount | null = null;
      history.forEach((body, seq) => {
        for (const [key, count] of Object.entries(tally([batch(`h${i}`, [body], { firstSeq: seq + 1 })], startedRuns({ [`h${i}`]: prior })))) total[key] = (total[key] ?? 0) + count;
        prior = body.type === "run_completed" ? { state: "completed" } : body.type === "run_cancelled" ? { state: "cancelled" } : body.type === "run_failed" ? { state: "failed", reason: body.reason } : { state: "running" };
      });
    });
    expect(total).toEqual({ started_running: 2, started_completed: 2, started_cancelled: 2, "started_failed:model_error": 1 });
    expect(Object.values(total).reduce((a, b) => a + b, 0), "seven runs started, seven counted").toBe(histories.length);
  });
});

describe("unpriced model calls", () => {
  it("are counted, so a cost beside them is never read as free; a replayed call (no tokens) cost nothing", () => {
    const call = (model: string, tokens: number): RunEvent => ({ seq: 1, at: "2026-03-01T10:00:00Z", type: "inference_completed", iteration: 1, model, usage: { inputTokens: tokens, outputTokens: 0 }, latencyMs: 5, toolCalls: 0, attempts: 1 });
    const rows = (event: RunEvent) =>
      deriveIncrements([{ run: { runId: "r", parentRunId: null, graphName: null, agentVersionId: null, startedBy: null }, summary: { startedAt: "2026-03-01T10:00:00Z" }, events: [event] }], { versionOf: () => 0, requestedAtOf: () => undefined, prices: priceBookOf({ "openai/priced": { input: 1, output: 1 } }) })
        .filter((r) => r.scope === 0 && r.resolution === 1)
        .map((r) => r.series);
    expect(rows(call("openai/unknown", 10))).toContain("unpriced_calls");
    expect(rows(call("openai/unknown", 10))).not.toContain("cost");
    expect(rows(call("openai/priced", 10))).toContain("cost");
    expect(rows(call("openai/priced", 10))).not.toContain("unpriced_calls");
    expect(rows(call("demo/assistant", 10)), "the demo models are free, not unpriced").not.toContain("unpriced_calls");
    expect(rows(call("openai/unknown", 0)), "a replayed call asked no model").not.toContain("unpriced_calls");
  });
});
