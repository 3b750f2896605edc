// An experiment survives kill -9 of its worker: SIGKILL while units are in
// flight (their runs started, not yet scored), start another worker, and every
// unit ends scored exactly once — one run per unit (the retried unit found the
// run it had started), one result row each, no unit left behind.
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { eventually, startEngineHarness, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { testProviders } from "../../scripts/test-support/databases";
import { startWorkerProcess } from "../../scripts/test-support/worker-process";
import { builder, dataset, item, resultRows, start, twoVersionGraph, waitForExperiment, type Builder } from "./experiment-fixtures";
import { scaledWait } from "../../scripts/test-support/wait-scale";

const providers = await testProviders();

describe.each(providers)("an experiment whose worker is killed ($provider)", ({ available, create }) => {
  let h: EngineHarness;
  let user: Builder;
  const workers: ChildProcess[] = [];
  const startWorker = async () => {
    const child = await startWorkerProcess({ temporalAddress: h.config.temporal.address, taskQueue: h.taskQueue, databaseUrl: h.database.url, env: { ZAP_WORKFLOW_BUNDLE: inject("workflowBundlePath") } });
    workers.push(child);
    return child;
  };

  beforeAll(async () => {
    if (!available) return;
    h = await startEngineHarness({ worker: false, database: await create() });
    user = await builder(h);
  });
  afterAll(async () => {
    for (const w of workers.splice(0)) w.kill("SIGKILL");
    if (available) await h.stop();
  });

  it.skipIf(!available)("scores each item exactly once after a SIGKILL mid-way", async () => {
    const graph = await twoVersionGraph(h, user);
    const items = Array.from({ length: 8 }, (_, i) => item(`think 2500\nanswer: item ${i}`, { output: `item ${i}` }));
    const name = await dataset(h, user, items);
    const first = await startWorker();
    const { experimentId, total } = await start(h, user, { dataset: name, targets: [{ graph, version: 1 }], scorers: [{ kind: "exact" }], concurrency: 3 });
    expect(total).toBe(8);

    // Kill while units are in flight: their runs started, their scores not yet written.
    const inFlight = await eventually(
      () => h.db.experimentResult.findMany({ where: { experimentId } }),
      (rows) => rows.some((r) => r.status === "scored") && rows.filter((r) => r.status === "running").length >= 2,
      60_000,
      "some units scored and two or more in flight",
    );
    first.kill("SIGKILL");
    await new Promise((resolve) => first.once("exit", resolve));
    const runningAtKill = inFlight.filter((r) => r.status === "running");
    expect(runningAtKill.length, "the kill hit units in flight").toBeGreaterThanOrEqual(2);
    expect(inFlight.filter((r) => r.status === "scored").length, "and the experiment was not finished").toBeLessThan(total);

    await startWorker();
    await waitForExperiment(h, experimentId, ["completed"], 120_000);
    const rows = await resultRows(h, experimentId);
    expect(rows.map((r) => r.status)).toEqual(Array(total).fill("scored"));
    expect(rows.map((r) => r.scores.map((s) => `${s.scorer}=${s.value}`).join())).toEqual(Array(total).fill("exact=1"));
    // One run per unit: the units in flight at the kill kept the runs they had started.
    const runs = await h.db.run.findMany({ where: { experimentId, parentRunId: null }, select: { id: true } });
    expect(runs).toHaveLength(total);
    expect(new Set(rows.map((r) => r.runId)).size).toBe(total);
    for (const unit of runningAtKill) expect(rows.find((r) => r.seq === unit.seq)?.runId).toBe(unit.runId);
    // Two worker processes bundle their workflows and the retried units wait out a heartbeat timeout.
  }, scaledWait(240_000));
});
