// The rollups' arithmetic without a database: histogram bins and percentiles,
// time buckets and grids, and what each ledger event adds.
import { describe, expect, it } from "vitest";
import { binOf, binValue, bucketOf, percentileOf, PERCENTILE_RELATIVE_ERROR } from "./histogram";
import { indexGroups, seriesData, seriesTotal, timeGrid } from "./assemble";
import { MAX_POINTS } from "./step";
import { callCost, deriveIncrements, type DerivableBatch } from "./derive";
import { costAt, EMPTY_PRICE_BOOK, priceBookOf } from "../pricing/price-book";
import { scopeFor } from "./scopes";
import type { RunEvent } from "../contract/types";

/**
 * The error docs/observe.md promises for a p50/p95/p99 of durations ≥ 1 ms ("within
 * 4.9 %"), as a number of its own: measured against the implementation's
 * PERCENTILE_RELATIVE_ERROR, a coarser histogram would widen both and stay green.
 */
const PROMISED_PERCENTILE_ERROR = 0.049;

/** Durations from 1 ms to 30 days, each 0.07 % above the last: finer than any bin, so every bin's worst case is met. */
const SWEEP_MS = Array.from({ length: Math.ceil(Math.log(30 * 86_400_000) / Math.log(1.0007)) + 1 }, (_, i) => Math.pow(1.0007, i));

describe("latency bins", () => {
  it("read back every duration from 1 ms to 30 days within the promised 4.9 %", () => {
    let worst = { ms: 0, error: 0 };
    for (const ms of [1, 1.5, 7, 99, 100, 1234, 60_000, 86_400_000, 30 * 86_400_000, ...SWEEP_MS]) {
      const error = Math.abs(binValue(binOf(ms)) - ms) / ms;
      if (error > worst.error) worst = { ms, error };
    }
    expect(worst.error, `${worst.ms} ms reads as ${binValue(binOf(worst.ms))}`).toBeLessThanOrEqual(PROMISED_PERCENTILE_ERROR);
    expect(worst.error, "the error the dashboard reports (percentileRelativeError) covers the worst one").toBeLessThanOrEqual(PERCENTILE_RELATIVE_ERROR + 1e-12);
    expect(PERCENTILE_RELATIVE_ERROR, "the reported error is within the promise").toBeLessThanOrEqual(PROMISED_PERCENTILE_ERROR);
    expect(binOf(0.2), "below 1 ms").toBe(0);
    expect(binOf(Number.NaN)).toBe(0);
    expect(binOf(30 * 86_400_000), "a 30-day wait stays in a small bin number").toBeLessThan(240);
  });

  it("take percentiles by nearest rank over summed bins, within the promised 4.9 %", () => {
    const bins = new Map<number, number>();
    for (let ms = 1; ms <= 100; ms++) bins.set(binOf(ms * 10), (bins.get(binOf(ms * 10)) ?? 0) + 1);
    for (const [q, exact] of [[0.5, 500], [0.95, 950], [0.99, 990]] as const) {
      const got = percentileOf(bins, q) ?? 0;
      expect(Math.abs(got - exact) / exact, `p${q * 100} of 10..1000 ms`).toBeLessThanOrEqual(PROMISED_PERCENTILE_ERROR);
    }
    // One duration repeated: every percentile is that duration, read from its bin.
    for (const ms of SWEEP_MS.filter((_, i) => i % 97 === 0)) {
      const single = new Map([[binOf(ms), 3]]);
      for (const q of [0.5, 0.95, 0.99]) expect(Math.abs((percentileOf(single, q) ?? 0) - ms) / ms, `p${q * 100} of ${ms} ms`).toBeLessThanOrEqual(PROMISED_PERCENTILE_ERROR);
    }
    expect(percentileOf(new Map(), 0.5), "no samples").toBeNull();
  });
});

describe("buckets and grids", () => {
  const at = Date.parse("2026-03-01T13:47:12Z");
  it("align minutes, hours and UTC days", () => {
    expect(new Date(bucketOf(at, "minute") * 60_000).toISOString()).toBe("2026-03-01T13:47:00.000Z");
    expect(new Date(bucketOf(at, "hour") * 60_000).toISOString()).toBe("2026-03-01T13:00:00.000Z");
    expect(new Date(bucketOf(at, "day") * 60_000).toISOString()).toBe("2026-03-01T00:00:00.000Z");
  });

  it("cut each range by the step chosen from it, minute rows under an hour's step and hourly rows from it", () => {
    const hour = timeGrid("1h", at);
    expect([hour.resolution, hour.stepMinutes, hour.slots]).toEqual(["minute", 1, 60]);
    expect(new Date(hour.toMinute * 60_000).toISOString(), "the current minute is the last slot").toBe("2026-03-01T13:48:00.000Z");
    const day = timeGrid("24h", at);
    expect([day.resolution, day.stepMinutes, day.slots], "24 h: 144 ten-minute points, not 240 six-minute hairlines").toEqual(["minute", 10, 144]);
    const week = timeGrid("7d", at);
    expect([week.resolution, week.stepMinutes]).toEqual(["hour", 120]);
    const month = timeGrid("30d", at);
    expect([month.resolution, month.stepMinutes]).toEqual(["hour", 360]);
    const custom = timeGrid("custom", at, { from: "2025-12-01T00:00:00Z", to: "2026-03-01T00:00:00Z" });
    expect([custom.resolution, custom.stepMinutes]).toEqual(["hour", 1440]);
    for (const grid of [hour, day, week, month, custom]) expect(grid.slots, `${grid.stepMinutes}-minute step`).toBeLessThanOrEqual(MAX_POINTS + 1);
  });

  it("end the range now: the last slot holds now, none lies in the future, the first covers the range's start", () => {
    for (const range of ["1h", "24h", "7d", "30d"] as const) {
      const grid = timeGrid(range, at);
      expect(grid.endMs, `${range} ends now`).toBe(at);
      const lastStart = (grid.toMinute - grid.stepMinutes) * 60_000;
      expect(lastStart, `${range}: the last slot has begun`).toBeLessThanOrEqual(at);
      expect(grid.toMinute * 60_000, `${range}: and holds now`).toBeGreaterThan(at);
      expect(grid.toMinute * 60_000 - at, `${range}: it ends within one row of now (a minute, or an hour for hourly rows)`).toBeLessThanOrEqual(grid.resolution === "hour" ? 3_600_000 : 60_000);
      expect(grid.fromMinute + grid.slots * grid.stepMinutes).toBe(grid.toMinute);
      expect(grid.fromMinute % (grid.resolution === "hour" ? 60 : 1), `${range}: slots are whole rows`).toBe(0);
    }
    const custom = timeGrid("custom", at, { from: "2026-02-28T10:00:00Z", to: "2026-02-28T16:30:00Z" });
    expect(new Date(custom.endMs).toISOString()).toBe("2026-02-28T16:30:00.000Z");
    expect(custom.fromMinute * 60_000, "the first slot starts at or before from").toBeLessThanOrEqual(Date.parse("2026-02-28T10:00:00Z"));
  });
});

describe("charts from groups", () => {
  const grid = timeGrid("1h", Date.parse("2026-03-01T13:59:30Z"));
  it("compute the success rate per slot and overall, of the started runs that ended, null where none did", () => {
    const index = indexGroups(
      [
        { series: "started_completed", slot: 0, key: "", bin: -1, count: 3, sum: 0 },
        { series: "started_failed", slot: 0, key: "", bin: -1, count: 1, sum: 0 },
        { series: "started_running", slot: 0, key: "", bin: -1, count: 4, sum: 0 },
        { series: "started_running", slot: 1, key: "", bin: -1, count: 2, sum: 0 },
        { series: "started_cancelled", slot: 5, key: "", bin: -1, count: 1, sum: 0 },
        // Ended in the range but started before it (the event series): not in the rate's parts.
        { series: "runs_completed", slot: 1, key: "", bin: -1, count: 9, sum: 0 },
      ],
      grid.slots,
    );
    const data = seriesData("success_rate", index, grid, false);
    expect(data.lines[0]?.points[0]?.value).toBe(0.75);
    expect(data.lines[0]?.points[1]?.value, "the runs started in that minute still run").toBeNull();
    expect(data.lines[0]?.points[5]?.value).toBe(0);
    expect(seriesTotal("success_rate", index)).toBe(0.6);
    expect(seriesTotal("runs_by_state", index), "every run started, whatever it is doing now").toBe(11);
    const states = seriesData("runs_by_state", index, grid, false);
    expect(states.lines.map((l) => [l.key, l.total]), "one line per state, stacking to the runs started").toEqual([["completed", 3], ["failed", 1], ["cancelled", 1], ["running", 6]]);
  });

  it("keep twelve lines, folding the smallest into 'other' without losing counts", () => {
    const groups = Array.from({ length: 15 }, (_, i) => ({ series: "runs_started" as const, slot: 1, key: `g${i}`, bin: -1, count: i + 1, sum: 0 }));
    const data = seriesData("runs_started", indexGroups(groups, grid.slots), grid, true);
    expect(data.lines).toHaveLength(12);
    expect(data.lines[0]?.key, "largest first").toBe("g14");
    expect(data.lines.at(-1)?.key).toBe("other");
    expect(data.lines.reduce((total, line) => total + (line.total ?? 0), 0), "every run still counted").toBe(120);
  });
});

describe("what ledger events add", () => {
  const base = { seq: 1, at: "2026-03-01T10:00:30.000Z" };
  const batch = (events: RunEvent[], parentRunId: string | null = null): DerivableBatch => ({
    run: { runId: "r", parentRunId, graphName: "triage", agentVersionId: "v-id", startedBy: "ann" },
    summary: { startedAt: "2026-03-01T10:00:00.000Z" },
    events,
  });
  const context = { versionOf: () => 3, requestedAtOf: (id: string) => (id === "a1" ? Date.parse("2026-03-01T09:59:30.000Z") : undefined), prices: priceBookOf({ "openai/gpt-x": { input: 1, output: 2 } }) };

  it("counts a failure by reason with its latency, at three resolutions, for top-level runs only", () => {
    const failed: RunEvent = { ...base, type: "run_failed", reason: "routing_exhausted", message: "no agent" };
    const all = deriveIncrements([batch([failed])], context);
    expect(all.filter((r) => r.scope === 0).every((r) => r.graph === "" && r.version === 0 && r.starter === ""), "the dimensionless copy").toBe(true);
    expect(all.filter((r) => r.scope === 0)).toHaveLength(9);
    const rows = all.filter((r) => r.scope === 1);
    const minute = rows.filter((r) => r.resolution === 1);
    expect(minute.map((r) => [r.series, r.label]).sort()).toEqual([["routing_exhausted", ""], ["run_latency", ""], ["runs_failed", "routing_exhausted"]]);
    expect(rows.every((r) => r.graph === "triage" && r.version === 3 && r.starter === "ann")).toBe(true);
    expect(rows).toHaveLength(9);
    const subRun = deriveIncrements([batch([failed], "parent")], context).filter((r) => r.scope === 1);
    expect(subRun.map((r) => r.series), "a sub-run's failure counts only as the orchestration failure").toEqual(["routing_exhausted", "routing_exhausted", "routing_exhausted"]);
  });

  it("prices model calls, times decisions from their request and tells granted budget asks from refused", () => {
    const rows = deriveIncrements(
      [
        batch([
          { ...base, type: "inference_completed", iteration: 1, model: "openai/gpt-x", usage: { inputTokens: 1_000_000, outputTokens: 500_000 }, latencyMs: 900, toolCalls: 0, attempts: 1 },
          { ...base, seq: 2, type: "approval_decided", approvalId: "a1", tool: "token_budget", status: "rejected", decidedBy: "bo", reason: "no" },
        ]),
      ],
      context,
    ).filter((r) => r.resolution === 60 && r.scope === 1);
    expect(rows.find((r) => r.series === "cost")?.sum, "1 M in at $1 + 0.5 M out at $2").toBe(2);
    expect(rows.find((r) => r.series === "approval_wait")?.bin, "decided 60 s after the request").toBe(binOf(60_000));
    expect(rows.find((r) => r.series === "budget_asks")?.label).toBe("refused");
  });

  it("sums repeated keys of a batch into one increment", () => {
    const started = (seq: number): RunEvent => ({ ...base, seq, type: "tool_call_completed", iteration: 1, callId: `c${seq}`, tool: "lookup", outcome: "ok", durationMs: 10, attempts: 1, result: "" });
    const rows = deriveIncrements([batch([started(1), started(2), started(3)])], context).filter((r) => r.resolution === 1 && r.scope === 1);
    expect(rows.map((r) => [r.series, r.count, r.sum])).toEqual([["tool_latency", 3, 30]]);
  });
});

describe("which rows a read sums", () => {
  it("takes the smallest projection holding its filters and breakdown, the cube for combinations", () => {
    expect(scopeFor({}, "none"), "unfiltered: the dimensionless rows").toBe(0);
    expect(scopeFor({}, "label")).toBe(0);
    expect(scopeFor({ graph: "triage" }, "version"), "graph and version live together").toBe(2);
    expect(scopeFor({ model: "openai/gpt-4o" }, "none")).toBe(3);
    expect(scopeFor({}, "tool")).toBe(4);
    expect(scopeFor({ startedBy: "ann" }, "label")).toBe(5);
    expect(scopeFor({ graph: "triage" }, "model"), "two dimensions from different projections").toBe(1);
  });

  it("writes each observation to every scope with only that scope's dimensions", () => {
    const rows = deriveIncrements(
      [{ run: { runId: "r", parentRunId: null, graphName: "g", agentVersionId: "v", startedBy: "ann" }, summary: { startedAt: "2026-03-01T10:00:00Z" }, events: [{ seq: 1, at: "2026-03-01T10:00:01Z", type: "inference_completed", iteration: 1, model: "m", usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 5, toolCalls: 0, attempts: 1 }] }],
      { versionOf: () => 2, requestedAtOf: () => undefined, prices: EMPTY_PRICE_BOOK },
    ).filter((r) => r.series === "tokens_in" && r.resolution === 60);
    expect(rows.map((r) => [r.scope, r.graph, r.version, r.model, r.starter]).sort()).toEqual(
      [[0, "", 0, "", ""], [1, "g", 2, "m", "ann"], [2, "g", 2, "", ""], [3, "", 0, "m", ""], [4, "", 0, "", ""], [5, "", 0, "", "ann"]].sort(),
    );
  });
});

describe("the cost of a model call", () => {
  it("is the price book's costAt at the call's time", () => {
    const prices = priceBookOf({ "openai/gpt-4o": { input: 2.5, output: 10 } });
    for (const model of ["openai/gpt-4o", "demo/assistant", "unknown/model"]) {
      const usage = { inputTokens: 1234, outputTokens: 567 };
      expect(callCost(model, usage, prices, 1_000), model).toBe(costAt(prices, model, usage, 1_000));
    }
  });
});
