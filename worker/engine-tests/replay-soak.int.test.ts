// The replay soak (issue 35 §2): every kind of run — plain, taped (a fork, an
// experiment's unit), routed, handed off, plan nodes inline and as children,
// sub-agent conversations, whole experiments, playground calls — on the demo
// model and on a scripted OpenAI-compatible server, hundreds at once, while a
// driver reads them as the web server does at random moments, cancels them
// right after a read, follows them up, approves and rejects their calls and
// budget asks, and the worker (a process of its own) is SIGKILLed twice. Then
// every execution the soak made, finished or not, is replayed on today's
// workflow bundle, as a worker that lost its cache would: one nondeterministic
// history fails the test, named with the first event that did not match.
//
// The randomness is seeded: the seed is printed first, and ZAP_SOAK_SEED=<seed>
// drives the same choices again (docs/testing.md).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startEngineHarness, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { startChatCompletionsServer, type ChatCompletionsServer } from "../../scripts/test-support/chat-completions-server";
import { startSoakWorkers, type SoakWorkerPool } from "../../scripts/test-support/soak-workers";
import { createRng, soakSeed, SOAK_SEED_ENV } from "../../scripts/test-support/soak-random";
import { RUN_KINDS, type SoakContext } from "../../scripts/test-support/soak-kinds";
import { saveSoakGraph, TAPED_KINDS } from "../../scripts/test-support/soak-taped-kinds";
import { createSoakDriver } from "../../scripts/test-support/soak-driver";
import { listSoakExecutions, replaySoak, soakLabels } from "../../scripts/test-support/soak-replay";
import type { SessionUser } from "../../lib/auth/server/session";
import { isRole } from "../../lib/access/roles";
import { scaledWait } from "../../scripts/test-support/wait-scale";

const seed = soakSeed();
const KINDS = [...RUN_KINDS, ...TAPED_KINDS];
/** How long the driver follows one run: past it, the run is replayed as it stands (and named in the log as not settled). */
const LIFE_MS = 60_000;
/** At least this many runs started in all (issue 35 §2). */
const MIN_RUNS = 300;

let h: EngineHarness;
let llm: ChatCompletionsServer;
let workers: SoakWorkerPool;

beforeAll(async () => {
  console.log(`replay soak: seed ${seed} (${SOAK_SEED_ENV}=${seed} drives the same choices again)`);
  llm = await startChatCompletionsServer();
  const openAiCompatible = { OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl, OPENAI_COMPATIBLE_NAME: "local", OPENAI_COMPATIBLE_API_KEY: "soak-key" };
  h = await startEngineHarness({ worker: false, env: openAiCompatible });
  workers = await startSoakWorkers({
    temporalAddress: h.config.temporal.address,
    taskQueue: h.taskQueue,
    databaseUrl: h.database.url,
    env: { ZAP_WORKFLOW_BUNDLE: inject("workflowBundlePath"), ...openAiCompatible },
  });
}, scaledWait(120_000));
afterAll(async () => {
  await workers?.stopAll();
  await h?.stop();
  await llm?.close();
});

async function user(email: string): Promise<SessionUser> {
  const row = await h.db.user.findUniqueOrThrow({ where: { email } });
  if (!isRole(row.role)) throw new Error(`unexpected role ${row.role}`);
  return { id: row.id, email: row.email, name: row.name ?? email, role: row.role };
}

describe("replay soak", () => {
  it(`${MIN_RUNS}+ runs of every kind, read, cancelled, followed up and decided at random, two worker kills: every history replays`, async () => {
    const began = Date.now();
    const builder = await user("builder@zap.local");
    const approver = await user("approver@zap.local");
    const ctx: SoakContext = { h, llm, builder, savedGraph: await saveSoakGraph(h, builder) };
    const rng = createRng(seed);
    const driver = createSoakDriver({ ctx, rng, kinds: KINDS, maxInFlight: 40, readers: 4, approver: { id: approver.id, email: approver.email, role: approver.role } });

    // Two SIGKILLs while the soak is in full flow: a third and two thirds of the way through the starts.
    const killing = (async () => {
      for (const share of [1 / 3, 2 / 3]) {
        await driver.whenLaunched(Math.floor(driver.total * share));
        await workers.killAndReplace(driver.inFlight());
      }
    })();
    await driver.run(LIFE_MS);
    await killing;
    const drove = Date.now() - began;
    // The worker goes before the histories are read: what was in flight is replayed as it stands, open.
    await workers.stopAll();

    const startedIds = driver.started.flatMap((s) => (s.workflowId ? [s.workflowId] : []));
    const executions = await listSoakExecutions(h.client, h.taskQueue, startedIds);
    console.log(`replay soak: drove for ${Math.round(drove / 1000)} s; replaying ${executions.length} executions`);
    const labelOf = await soakLabels(h, driver.started);
    const report = await replaySoak(h, executions, labelOf);
    const { stats } = driver;
    // Runs of the runs table that no other run started (experiment units included), and playground calls.
    const rootRuns = await h.db.run.count({ where: { parentRunId: null } });
    const subRuns = await h.db.run.count({ where: { parentRunId: { not: null } } });
    const runs = rootRuns + driver.started.filter((s) => s.kind === "playground").length;
    const byType = executions.reduce<Record<string, number>>((counts, e) => ({ ...counts, [e.type]: (counts[e.type] ?? 0) + 1 }), {});
    const byLabel = executions.reduce<Record<string, number>>((counts, e) => ({ ...counts, [labelOf(e)]: (counts[labelOf(e)] ?? 0) + 1 }), {});
    console.log(
      [
        `replay soak: seed ${seed}; ${runs} runs (and ${subRuns} sub-runs) in ${Math.round(drove / 1000)} s; started by the driver: ${JSON.stringify(stats.startedByKind)}`,
        `  kills: ${workers.kills.map((k) => `pid ${k.pid} at ${Math.round(k.atMs / 1000)} s with ${k.runsInFlight} in flight`).join("; ")}`,
        `  reads: ${JSON.stringify(stats.reads)} (${stats.readErrors} failed or timed out); cancels ${stats.cancels}; follow-ups ${stats.followUps}; decisions ${JSON.stringify(stats.decisions)}`,
        `  replayed ${report.replayed} executions (${report.open} open, ${report.events} events; ${JSON.stringify(byType)}); ${report.timedOutTasks} with a timed-out workflow task; in ${Math.round((Date.now() - began) / 1000)} s in all`,
        `  executions by kind: ${JSON.stringify(byLabel)}`,
        ...(stats.unsettled.length ? [`  not settled when the drive ended (replayed as they stand): ${stats.unsettled.length}: ${stats.unsettled.slice(0, 10).join(", ")}`] : []),
        ...(stats.startFailures.length ? [`  starts refused: ${stats.startFailures.join("; ")}`] : []),
      ].join("\n"),
    );

    expect(report.failures, `seed ${seed} (${SOAK_SEED_ENV}=${seed} to drive it again): ${report.failures.length} execution(s) did not replay:\n${report.failures.join("\n")}`).toEqual([]);
    expect(stats.startFailures, "every start was accepted").toEqual([]);
    expect(runs, "runs started in all").toBeGreaterThanOrEqual(MIN_RUNS);
    expect(new Set(driver.started.map((s) => s.kind))).toEqual(new Set(["plain", "approvals", "budget", "sub-agent", "routed", "handoff", "plan", "taped fork", "taped unit", "experiment", "playground"]));
    expect(new Set(driver.started.map((s) => s.model))).toEqual(new Set(["demo", "openai-compatible"]));
    // The kills hit work in flight: runs were held by the killed worker and moved over after a timed-out task.
    expect(workers.kills).toHaveLength(2);
    for (const kill of workers.kills) expect(kill.runsInFlight, "runs in flight at the kill").toBeGreaterThanOrEqual(10);
    expect(report.timedOutTasks, "executions that lost their worker mid-task").toBeGreaterThan(0);
    expect(stats.cancels + stats.followUps + stats.decisions.approve + stats.decisions.reject, "the driver acted on runs").toBeGreaterThan(50);
    // The workflows the kinds start below their runs were there to replay: plan nodes run as children, sub-agent
    // conversations, routed agents, experiments' units (inline plan nodes and handoffs live in their run's history).
    expect(Object.keys(byType)).toEqual(expect.arrayContaining(["agentRunWorkflow", "playgroundCallWorkflow", "experimentWorkflow"]));
    expect(Object.keys(byLabel)).toEqual(expect.arrayContaining(["child of plan on demo", "child of sub-agent on demo", "child of sub-agent on openai-compatible", "child of routed on demo", "experiment unit"]));
    // A hang detector, not a speed bound: alone on two cores the soak takes ~125–175 s, but on a machine at half that
    // speed with other work beside it the drive alone took ~400 s (2026-11-30) and the replay was cut off.
  }, scaledWait(720_000));
});
