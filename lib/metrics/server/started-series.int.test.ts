// The overview's run figures on SQLite and PostgreSQL, from ledger batches
// written by the real writer and derived by the real deriver: the tiles add up
// (started = completed + failed + cancelled + still running), a run that
// answered and was cancelled in its follow-up window counts once, as
// cancelled; a follow-up moves a run back to running; the success rate divides
// the ended runs of that same set; and each figure is exactly the number of
// runs the runs list's own reader lists for its drill-down (start time, status,
// experiment runs included). An upgraded database's older runs are counted by
// the backfill, once, and their later events by the deriver.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MetricsDashboard } from "../schemas";
import { createDb, type Db } from "../../db/prisma";
import { applyMigrations } from "../../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../../scripts/test-support/databases";
import type { LedgerBatch } from "../../contract/workflow";
import type { RunEvent } from "../../contract/types";
import { writeLedgerGroup } from "../../run-ledger/write";
import { deriveQueued } from "../../run-ledger/deriver";
import { readRunRows } from "../../run-ledger/read";
import { backfillStartedSeries } from "../../run-ledger/started-backfill";
import { STARTED_BACKFILL_ROW } from "../../run-ledger/started-runs";
import { readMetricsDashboard } from "./dashboard";
import { seriesValue } from "./series-value";

const providers = await testProviders();
const NOW = new Date("2026-03-01T12:30:30.000Z");
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString();

type Body = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, "seq" | "at"> : never) : never;
const started: Body = { type: "run_started", agentName: "main", task: "t", depth: 0 };
const completed: Body = { type: "run_completed", output: "done" };

/** A batch of top-level run `runId` (started `startedMinutesAgo`, graph `graph`): events from `firstSeq`, each at its minutes ago. */
function batch(runId: string, graph: string, startedMinutesAgo: number, bodies: [Body, number][], firstSeq = 1, status: LedgerBatch["summary"]["status"] = "thinking"): LedgerBatch {
  const events = bodies.map(([body, minutesAgo], i) => ({ ...body, seq: firstSeq + i, at: ago(minutesAgo) }) as RunEvent);
  return {
    run: { runId, rootRunId: runId, parentRunId: null, agentName: "main", task: "t", context: {}, startedBy: "ann@zap.local", graphName: graph, agentVersionId: null },
    summary: {
      status,
      iteration: 1,
      usage: { inputTokens: 0, outputTokens: 0 },
      pendingApprovals: 0,
      lastEventSeq: firstSeq + events.length - 1,
      messageCount: 0,
      generation: 0,
      output: null,
      error: status === "failed" ? { reason: "model_error", message: "boom" } : null,
      startedAt: ago(startedMinutesAgo),
      endedAt: status === "completed" || status === "failed" || status === "cancelled" ? ago(0) : null,
    },
    events,
    spans: [],
    messages: [],
    approvals: [],
  };
}

/** The tiles' figures as the overview computes them (app/(dashboard)/dashboard-client.tsx reads the same totals). */
function tiles(d: MetricsDashboard) {
  const ended = (d.totals.started_completed ?? 0) + (d.totals.started_failed ?? 0) + (d.totals.started_cancelled ?? 0);
  return { started: d.totals.runs_by_state, completed: d.totals.started_completed, failed: d.totals.started_failed, cancelled: d.totals.started_cancelled, running: d.totals.started_running, ended, successRate: d.totals.success_rate };
}

describe.each(providers)("the overview's run figures on $provider", ({ available, create }) => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    if (!available) return;
    database = await create();
    await applyMigrations(database.url);
    db = createDb(database.url);
  });
  afterAll(async () => {
    if (!available) return;
    await db.$disconnect();
    await database.drop();
  });

  it.skipIf(!available)("add up, count a run once where it is now, and are exactly the runs each drill-down lists", async () => {
    const g = "figures";
    // Written in three passes, as a worker writes a run's batches over time; the deriver runs after each.
    await writeLedgerGroup(db, [
      batch("f-done", g, 20, [[started, 20], [completed, 19]], 1, "completed"),
      batch("f-cancelled-after-answer", g, 18, [[started, 18], [completed, 17]], 1, "completed"),
      batch("f-follow-up", g, 16, [[started, 16], [completed, 15]], 1, "completed"),
      batch("f-failed", g, 14, [[started, 14], [{ type: "run_failed", reason: "model_error", message: "boom" }, 13]], 1, "failed"),
      batch("f-working", g, 12, [[started, 12]]),
      // Started before the hour the dashboard shows, ended within it: not one of the runs started in the range.
      batch("f-old", g, 90, [[started, 90]]),
    ]);
    await deriveQueued(db);
    await writeLedgerGroup(db, [
      batch("f-cancelled-after-answer", g, 18, [[{ type: "run_cancelled", message: "the run was cancelled" }, 5]], 3, "cancelled"),
      batch("f-follow-up", g, 16, [[{ type: "user_message", content: "and then?" }, 4]], 3),
      batch("f-old", g, 90, [[completed, 3]], 2, "completed"),
    ]);
    await deriveQueued(db);
    // An experiment's run: the overview counts it, and its drill-down shows experiment runs too.
    await writeLedgerGroup(db, [batch("f-experiment", g, 10, [[started, 10], [completed, 9]], 1, "completed")]);
    await db.run.update({ where: { id: "f-experiment" }, data: { experimentId: "exp-1" } });
    await deriveQueued(db);

    const dashboard = await readMetricsDashboard(db, { range: "1h", graph: g }, NOW);
    const figures = tiles(dashboard);
    expect(figures, "six runs started in the hour: two completed (one an experiment's), one failed, one cancelled after it answered, two working").toEqual({
      started: 6,
      completed: 2,
      failed: 1,
      cancelled: 1,
      running: 2,
      ended: 4,
      successRate: 0.5,
    });
    expect((figures.completed ?? 0) + (figures.failed ?? 0) + (figures.cancelled ?? 0) + (figures.running ?? 0), "the tiles add up to the runs started").toBe(figures.started);
    expect(dashboard.totals.runs_completed, "the event series still counts every answer when it happened, f-old's too").toBe(5);

    // Each tile is the runs list's count for its drill-down: the same start range, status, graph, experiment runs included.
    const { from, to } = dashboard.range;
    const listed = async (status?: string, notIn?: string[]) => {
      const { rows } = await readRunRows(db, { topLevel: true, graph: g, startedFrom: new Date(from), startedTo: new Date(Date.parse(to) - 1), ...(status ? { status } : {}) }, { take: 100 });
      return rows.filter((row) => !notIn?.includes(row.status)).length;
    };
    expect(await listed(), "started").toBe(figures.started);
    expect(await listed("completed")).toBe(figures.completed);
    expect(await listed("failed")).toBe(figures.failed);
    expect(await listed("cancelled")).toBe(figures.cancelled);
    expect(await listed(undefined, ["completed", "failed", "cancelled"]), "still running").toBe(figures.running);

    // The chart's lines are the same runs, in the minutes they started.
    const states = dashboard.series.runs_by_state?.lines ?? [];
    expect(states.map((l) => [l.key, l.total])).toEqual([["completed", 2], ["failed", 1], ["cancelled", 1], ["running", 2]]);
    const byReason = await readMetricsDashboard(db, { range: "1h", graph: g, breakdown: "label", series: ["started_failed", "runs_by_state"] }, NOW);
    expect(byReason.series.started_failed?.lines.map((l) => [l.key, l.total])).toEqual([["model_error", 1]]);
    expect(byReason.series.runs_by_state?.lines.map((l) => [l.key, l.total]), "split by its own label: still by state").toEqual([["completed", 2], ["failed", 1], ["cancelled", 1], ["running", 2]]);
    expect(await seriesValue(db, { series: "success_rate", windowMinutes: 60, filters: { graph: g } }, NOW), "a monitor divides the same runs").toBe(0.5);
    expect(await seriesValue(db, { series: "runs_by_state", windowMinutes: 60, filters: { graph: g } }, NOW)).toBe(6);
  });

  it.skipIf(!available)("count an upgraded database's older runs once: the backfill up to the cutoff, the deriver after it", async () => {
    const g = "upgraded";
    const cutoff = Date.parse(ago(30));
    // Two runs written before the started_* series existed: rows and events straight into the ledger, as older code did.
    for (const [id, startedMinutesAgo, events] of [
      ["u-answered", 40, [started, completed]],
      ["u-working", 35, [started]],
    ] as const) {
      await db.run.create({ data: { id, rootRunId: id, agentName: "main", graphName: g, task: "t", status: events.length > 1 ? "completed" : "thinking", startedAt: new Date(ago(startedMinutesAgo)) } });
      await db.runEvent.createMany({
        data: events.map((body, i) => {
          const event = { ...body, seq: i + 1, at: ago(startedMinutesAgo - i) } as RunEvent;
          return { runId: id, seq: event.seq, type: event.type, at: new Date(event.at), data: JSON.stringify(event), bytes: 1 };
        }),
      });
    }
    await db.metricBackfillState.update({ where: { id: STARTED_BACKFILL_ROW }, data: { backfillBeforeMs: cutoff, done: false, cursorRunId: "" } });
    const figures = async () => tiles(await readMetricsDashboard(db, { range: "1h", graph: g }, NOW));
    expect((await figures()).started, "not counted before the backfill").toBe(0);
    await backfillStartedSeries(db, { pageSize: 1 });
    await backfillStartedSeries(db, { pageSize: 1 });
    expect(await figures(), "counted once, however often the backfill runs").toMatchObject({ started: 2, completed: 1, running: 1 });
    // The working run answers after the upgrade: the deriver moves it from running, where the backfill left it.
    await writeLedgerGroup(db, [batch("u-working", g, 35, [[completed, 2]], 2, "completed")]);
    await deriveQueued(db);
    expect(await figures()).toMatchObject({ started: 2, completed: 2, running: 0, successRate: 1 });
  });
});
