// Online evaluation's scores where people read them (issue 40 §2), on SQLite and
// PostgreSQL with real runs: the monitors' evaluator_score series reads the mean
// an evaluator gave in the window (null when it gave none) and a monitor "mean
// score of support-triage below 0.8 in 1 h" fires; the runs list filters by an
// evaluator's score and carries each run's score; the overview's score series
// splits an evaluator's means by version. The evaluations are written as the
// engine records them (one row per evaluator and root run), so these reads are
// tested apart from the engine that scores.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Client } from "@temporalio/client";
import { singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { testProviders } from "../../scripts/test-support/databases";
import { doors } from "../../scripts/test-support/parity-doors";
import { apiRequest, params, routeOutcome } from "../../scripts/test-support/parity";
import { monitorSeriesReader } from "../monitors/series";
import { evaluateMonitors } from "../monitors/evaluate";
import { createMonitor } from "../monitors/server/store";
import { seriesValue } from "../metrics/server/series-value";
import { runFiltersSchema } from "../runs/schemas";
import type { ScoreSeries } from "./score-series";
import { scaledWait } from "../../scripts/test-support/wait-scale";

const temporal = vi.hoisted(() => ({ client: null as unknown }));
vi.mock("@/lib/auth/server/auth", async () => (await import("../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../scripts/test-support/parity-doors")).configModule);
vi.mock("next/cache", async () => (await import("../../scripts/test-support/parity-doors")).cacheModule);
vi.mock("@/lib/temporal/server/client", () => ({ getTemporalClient: () => temporal.client as Client }));

const { listRunPage } = await import("../runs/server/runs");
const scoresRoute = await import("@/app/api/evaluators/scores/route");

const providers = await testProviders();
const EVALUATOR = "support-triage";
const GRAPH = "support-triage";

describe.each(providers)("evaluation scores on $provider", ({ available, create }) => {
  let h: EngineHarness;
  const ids: Record<string, string> = {};
  const runs: string[] = [];
  const now = new Date();
  const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);

  beforeAll(async () => {
    if (!available) return;
    h = await startEngineHarness({ database: await create() });
    temporal.client = h.client;
    doors.db = h.db;
    doors.config = h.config;
    for (const role of ["builder", "viewer"]) ids[role] = (await h.db.user.findUniqueOrThrow({ where: { email: `${role}@zap.local` } })).id;
    const graph = singleAgentGraph({ name: "main", model: "demo/test" });
    for (const task of ["answer: good", "answer: poor", "answer: unscored"]) runs.push((await h.engine.startRun({ graph, task })).runId);
    await Promise.all(runs.map((id) => waitForStatus(h.engine, id, ["completed"], 60_000)));
    const checks = JSON.stringify([{ source: "scorer", scorer: { kind: "contains", text: "good" } }]);
    await h.db.onlineEvaluator.create({ data: { id: "oev_scorestest01", name: EVALUATOR, graph: GRAPH, checks, activeFrom: minutesAgo(120) } });
    await h.db.onlineEvaluator.create({ data: { id: "oev_scorestest02", name: "tone", graph: GRAPH, checks, activeFrom: minutesAgo(120) } });
    const evaluation = (id: string, evaluatorId: string, runId: string, meanScore: number | null, version: number, evaluatedAt: Date, status = "scored") =>
      h.db.onlineEvaluation.create({ data: { id, evaluatorId, runId, graph: GRAPH, version, status, meanScore, runEndedAt: evaluatedAt, evaluatedAt } });
    // support-triage: 1.0 on the good run (v1), 0.2 on the poor one (v2) — a mean of 0.6 in the last hour;
    // tone scored the good run 0.9; the third run was only claimed (pending), so it has no score.
    await evaluation("oevl_scoretest1", "oev_scorestest01", runs[0]!, 1, 1, minutesAgo(10));
    await evaluation("oevl_scoretest2", "oev_scorestest01", runs[1]!, 0.2, 2, minutesAgo(5));
    await evaluation("oevl_scoretest3", "oev_scorestest02", runs[0]!, 0.9, 1, minutesAgo(5));
    await evaluation("oevl_scoretest4", "oev_scorestest01", runs[2]!, null, 1, minutesAgo(1), "pending");
  }, scaledWait(120_000));

  afterAll(async () => {
    if (available) await h.stop();
  });

  it.skipIf(!available)("the monitors' evaluator_score is the evaluator's mean in the window, null when it gave none, and a monitor below 0.8 in 1 h fires", async () => {
    const readSeries = monitorSeriesReader(seriesValue, () => now);
    const read = (label: string | undefined, windowMinutes: number, filters: Record<string, unknown> = {}) => readSeries(h.db, { series: "evaluator_score", label, windowMinutes, filters });
    expect(await read(EVALUATOR, 60)).toBeCloseTo(0.6, 6);
    expect(await read(EVALUATOR, 7), "only the score given 5 minutes ago is in a 7-minute window").toBeCloseTo(0.2, 6);
    expect(await read(EVALUATOR, 60, { graph: GRAPH, version: 1 }), "the version filter reads v1's runs only").toBeCloseTo(1, 6);
    expect(await read(EVALUATOR, 60, { graph: "another-graph" }), "another graph: nothing scored").toBeNull();
    expect(await read("nobody", 60), "an evaluator that scored nothing").toBeNull();
    expect(await read(EVALUATOR, 2), "a pending evaluation has no score").toBeNull();

    await createMonitor(h.db, { name: "support-triage quality", series: "evaluator_score", label: EVALUATOR, comparator: "lt", threshold: 0.8, windowMinutes: 60, filters: { graph: GRAPH } }, { id: ids.builder ?? "" });
    await createMonitor(h.db, { name: "tone quality", series: "evaluator_score", label: "tone", comparator: "lt", threshold: 0.8, windowMinutes: 60 }, { id: ids.builder ?? "" });
    const tick = await evaluateMonitors(h.db, { readSeries, webhookConfigured: false });
    expect(tick, "support-triage's 0.6 is below 0.8; tone's 0.9 is not").toMatchObject({ fired: 1, failed: [] });
    const alert = await h.db.monitorAlert.findFirstOrThrow({ where: { state: "firing" } });
    expect(alert.monitorName).toBe("support-triage quality");
    expect(alert.valueAtFire).toBeCloseTo(0.6, 6);
  });

  it.skipIf(!available)("the runs list filters by an evaluator's score and shows each run's mean with the evaluators' figures", async () => {
    const page = async (query: Record<string, string>) => listRunPage(runFiltersSchema.parse(query));
    const low = await page({ evaluator: EVALUATOR, scoreBelow: "0.8" });
    expect(low.rows.map((r) => r.runId)).toEqual([runs[1]]);
    expect(low.rows[0]?.score).toEqual({ mean: 0.2, byEvaluator: [{ evaluator: EVALUATOR, meanScore: 0.2 }] });
    const high = await page({ evaluator: EVALUATOR, scoreAtLeast: "0.8" });
    expect(high.rows.map((r) => r.runId)).toEqual([runs[0]]);
    expect(high.rows[0]?.score?.mean, "the run's score is the mean of both evaluators' (1 and 0.9)").toBeCloseTo(0.95, 6);
    expect(high.rows[0]?.score?.byEvaluator.map((e) => e.evaluator)).toEqual([EVALUATOR, "tone"]);
    const scored = await page({ evaluator: EVALUATOR });
    expect(scored.rows.map((r) => r.runId).sort(), "a pending evaluation is not a score").toEqual([runs[0], runs[1]].sort());
    const all = await page({});
    expect(all.rows.find((r) => r.runId === runs[2])?.score, "an unscored run has no score").toBeNull();
    expect((await page({ evaluator: "nobody" })).rows).toEqual([]);
  });

  it.skipIf(!available)("the overview's score series gives each evaluator's mean per bucket by version, to any signed-in role", async () => {
    doors.userId = ids.viewer ?? null;
    const query = new URLSearchParams({ from: minutesAgo(60).toISOString(), to: now.toISOString(), graph: GRAPH, split: "version" });
    const outcome = await routeOutcome(await scoresRoute.GET(apiRequest("GET", `/api/evaluators/scores?${query.toString()}`), params({})));
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    const series = (outcome as { data: ScoreSeries }).data;
    expect(series.lines.map((l) => [l.evaluator, l.key, l.scored, l.mean])).toEqual([
      [EVALUATOR, "v1", 1, 1],
      [EVALUATOR, "v2", 1, 0.2],
      ["tone", "v1", 1, 0.9],
    ]);
    const bad = await routeOutcome(await scoresRoute.GET(apiRequest("GET", `/api/evaluators/scores?from=${now.toISOString()}&to=${minutesAgo(5).toISOString()}`), params({})));
    expect(bad).toMatchObject({ ok: false, status: 422 });
  });
});
