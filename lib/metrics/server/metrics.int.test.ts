// Metric rollups end to end on SQLite and PostgreSQL: ledger batches written by
// the real writer (writeLedgerGroup) maintain the rollups in their transaction;
// a replayed batch adds nothing; concurrent writers on two clients lose no
// increment; the dashboard and seriesValue read back the exact numbers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../db/prisma";
import { applyMigrations } from "../../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../../scripts/test-support/databases";
import type { LedgerBatch } from "../../contract/workflow";
import type { RunEvent } from "../../contract/types";
import { writeLedgerGroup } from "../../run-ledger/write";
import { readMetricsDashboard } from "./dashboard";
import { seriesValue } from "./series-value";
import { backfillMetricRollups } from "./backfill";

const providers = await testProviders();
const NOW = new Date("2026-03-01T12:30:30.000Z");
/** Minutes before NOW, as ISO. */
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString();

type Body = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, "seq" | "at"> : never) : never;

function batch(runId: string, startedMinutesAgo: number, bodies: { body: Body; minutesAgo: number }[], options: { firstSeq?: number; graph?: string; startedBy?: string } = {}): LedgerBatch {
  const first = options.firstSeq ?? 1;
  const events = bodies.map(({ body, minutesAgo }, i) => ({ ...body, seq: first + i, at: ago(minutesAgo) }) as RunEvent);
  return {
    run: { runId, rootRunId: runId, parentRunId: null, agentName: "main", task: "t", context: {}, startedBy: options.startedBy ?? "ann@zap.local", graphName: options.graph ?? "triage", agentVersionId: null },
    summary: {
      status: "thinking",
      iteration: 1,
      usage: { inputTokens: 0, outputTokens: 0 },
      pendingApprovals: 0,
      lastEventSeq: first + events.length - 1,
      messageCount: 0,
      generation: 0,
      output: null,
      error: null,
      startedAt: ago(startedMinutesAgo),
      endedAt: null,
    },
    events,
    spans: [],
    messages: [],
    approvals: [],
  };
}

const inference = (latencyMs: number): Body => ({ type: "inference_completed", iteration: 1, model: "demo/assistant", usage: { inputTokens: 100, outputTokens: 20 }, latencyMs, toolCalls: 0, attempts: 1 });

describe.each(providers)("metric rollups on $provider", ({ available, create }) => {
  let database: TestDatabase;
  let db: Db;
  let second: Db;
  beforeAll(async () => {
    if (!available) return;
    database = await create();
    await applyMigrations(database.url);
    db = createDb(database.url);
    second = createDb(database.url);
  });
  afterAll(async () => {
    if (!available) return;
    await Promise.all([db.$disconnect(), second.$disconnect()]);
    await database.drop();
  });

  it.skipIf(!available)("counts what the ledger inserted, once, even when a batch is replayed", async () => {
    const a = batch("m-a", 10, [
      { body: { type: "run_started", agentName: "main", task: "t", depth: 0 }, minutesAgo: 10 },
      { body: inference(400), minutesAgo: 9 },
      { body: { type: "tool_call_completed", iteration: 1, callId: "c1", tool: "lookup", outcome: "ok", durationMs: 50, attempts: 1, result: "{}" }, minutesAgo: 9 },
      { body: { type: "run_completed", output: "done" }, minutesAgo: 8 },
    ]);
    const b = batch("m-b", 5, [
      { body: { type: "run_started", agentName: "main", task: "t", depth: 0 }, minutesAgo: 5 },
      { body: { type: "routing_decided", decision: { router: "r", attempt: 1, target: "billing", confidence: 0.2, reason: "", fallback: "general", chosen: "general", fallbackTaken: true, threshold: 0.5 } }, minutesAgo: 5 },
      { body: { type: "output_invalid", iteration: 1, attempt: 1, errors: ["x"], repairing: true }, minutesAgo: 4 },
      { body: { type: "run_failed", reason: "validation_error", message: "bad answer" }, minutesAgo: 3 },
    ]);
    await writeLedgerGroup(db, [a, b]);
    // Replayed after a crash: the same events again, plus one new one for m-b's run (a later cancel is impossible, so a late inference).
    await writeLedgerGroup(db, [a, { ...b, events: [...b.events, { ...inference(800), seq: 5, at: ago(2) } as RunEvent], summary: { ...b.summary, lastEventSeq: 5 } }]);

    const dashboard = await readMetricsDashboard(db, { range: "1h" }, NOW);
    expect(dashboard.totals.runs_started, "two runs started, counted once each despite the replay").toBe(2);
    expect(dashboard.totals.runs_completed).toBe(1);
    expect(dashboard.totals.runs_failed).toBe(1);
    expect(dashboard.totals.success_rate, "1 of 2 ended runs completed").toBe(0.5);
    expect(dashboard.totals.validation_errors).toBe(1);
    expect(dashboard.totals.answers_repaired).toBe(1);
    expect(dashboard.totals.routing_fallback_rate).toBe(1);
    expect(dashboard.totals.tokens_in, "two model calls of 100 input tokens (the replay's new one counts)").toBe(200);
    expect(dashboard.series.model_latency?.latency?.count).toBe(2);
    const p99 = dashboard.series.model_latency?.latency?.p99 ?? 0;
    expect(Math.abs(p99 - 800) / 800, "p99 of 400 and 800 ms within the bins' error").toBeLessThanOrEqual(dashboard.percentileRelativeError);
    const runLatencyP50 = dashboard.series.run_latency?.latency?.p50 ?? 0;
    expect(Math.abs(runLatencyP50 - 120_000) / 120_000, "p50 of 2 min and 2 min").toBeLessThanOrEqual(dashboard.percentileRelativeError);
    const started = dashboard.series.runs_started?.lines[0]?.points ?? [];
    expect(started.length, "1 h at one-minute steps (+ the current minute)").toBeGreaterThanOrEqual(60);
    expect(started.filter((p) => p.value === 1).map((p) => p.t), "each start in its own minute").toEqual([ago(10).slice(0, 16) + ":00.000Z", ago(5).slice(0, 16) + ":00.000Z"]);

    const failedByReason = await readMetricsDashboard(db, { range: "24h", breakdown: "label", series: ["runs_failed"] }, NOW);
    expect(failedByReason.series.runs_failed?.lines.map((l) => [l.key, l.total])).toEqual([["validation_error", 1]]);

    expect(await seriesValue(db, { series: "runs_failed", stat: "rate", windowMinutes: 15, filters: {} }, NOW), "failure rate over 15 min").toBe(0.5);
    expect(await seriesValue(db, { series: "runs_started", windowMinutes: 15, filters: { graph: "other" } }, NOW), "another graph has none").toBe(0);
    expect(await seriesValue(db, { series: "runs_started", windowMinutes: 7, filters: {} }, NOW), "only m-b started within 7 min").toBe(1);
  });

  it.skipIf(!available)("concurrent writers on two clients lose no increment of a shared row", async () => {
    const writers = Array.from({ length: 24 }, (_, i) =>
      writeLedgerGroup(i % 2 === 0 ? db : second, [
        batch(`c-${i}`, 30, [
          { body: { type: "run_started", agentName: "main", task: "t", depth: 0 }, minutesAgo: 30 },
          { body: inference(100 + i), minutesAgo: 30 },
        ], { graph: "hot" }),
      ]),
    );
    await Promise.all(writers);
    const value = await seriesValue(db, { series: "runs_started", windowMinutes: 60, filters: { graph: "hot" } }, NOW);
    expect(value, "24 runs started in the same minute, one shared row per resolution").toBe(24);
    expect(await seriesValue(db, { series: "tokens_in", stat: "sum", windowMinutes: 60, filters: { graph: "hot" } }, NOW)).toBe(2400);
    const rows = await db.metricRollup.findMany({ where: { series: "runs_started", graph: "hot" } });
    expect(rows.map((r) => [r.resolution, r.count]).sort(), "one row per resolution").toEqual([[1, 24], [1440, 24], [60, 24]].sort());
  });

  it.skipIf(!available)("the backfill derives events written before the rollups existed, once", async () => {
    // Events that predate the rollups: inserted straight into the ledger, as older code did.
    await db.run.create({ data: { id: "old-1", rootRunId: "old-1", agentName: "main", graphName: "legacy", task: "t", startedAt: new Date(ago(50)) } });
    await db.runEvent.createMany({
      data: (
        [
          { type: "run_started", agentName: "main", task: "t", depth: 0, seq: 1, at: ago(50) },
          { type: "run_completed", output: "ok", seq: 2, at: ago(49) },
        ] as RunEvent[]
      ).map((event) => ({ runId: "old-1", seq: event.seq, type: event.type, at: new Date(event.at), data: JSON.stringify(event), bytes: 1 })),
    });
    await db.metricBackfillState.update({ where: { id: 1 }, data: { backfillBeforeMs: Date.parse(ago(45)), done: false, cursorRunId: "", cursorSeq: 0 } });
    const legacy = () => seriesValue(db, { series: "runs_completed", windowMinutes: 60, filters: { graph: "legacy" } }, NOW);
    expect(await legacy(), "nothing before the backfill").toBe(0);
    await backfillMetricRollups(db, { pageSize: 1 });
    await backfillMetricRollups(db, { pageSize: 1 });
    expect(await legacy(), "counted once, however often the backfill runs").toBe(1);
    expect((await db.metricBackfillState.findUniqueOrThrow({ where: { id: 1 } })).done).toBe(true);
  });
});
