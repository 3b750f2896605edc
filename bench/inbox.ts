// bench/inbox: the approval inbox under load, against a naive fan-out.
//   300 running runs, 30 of them waiting for approval (10 inside sub-agents).
//   Measures, in the same run:
//   - inbox refresh (visibility finds waiting runs, their queries say what is
//     pending, the ledger adds chain / message / tokens): p50 / p95;
//   - the naive fan-out (list every running run, query each one): p50 / p95,
//     and the ratio;
//   - request → visible: new approval requests polled the way the page does
//     (every second) and back to back: p95;
//   - 100 decisions sent at once through the inbox's decision path: errors, p95.
//
//   npm run bench:inbox     (BENCH_RUNS / BENCH_WAITING override 300 / 30)
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { Client, Connection } from "@temporalio/client";
import { parseEnv } from "../lib/config/env";
import { createDb, type Db } from "../lib/db/prisma";
import { seedDatabase } from "../lib/seed/seed";
import { createEngine, type Engine } from "../lib/engine/client";
import { pendingApprovalsQuery } from "../lib/contract/definitions";
import type { ApprovalRequest } from "../lib/contract/types";
import type { Role } from "../lib/access/roles";
import { loadInbox } from "../lib/inbox/server/inbox";
import { decideMany } from "../lib/inbox/server/decide";
import { createClaimCheckCodec } from "../lib/temporal/claim-check-codec";
import { applyMigrations } from "../scripts/db/migrate";
import { provisionTemporalCli } from "../scripts/lib/temporal-cli";
import { spawnDevServer, waitForTemporal } from "../scripts/lib/temporal-server";
import { freePort } from "../scripts/test-support/ports";
import { freshSqlite } from "../scripts/test-support/databases";
import { startWorkerProcess, stopWorkerProcess } from "../scripts/test-support/worker-process";
import { TEST_AUTH_SECRET } from "../scripts/test-support/test-keys";
import { configuredKey } from "../lib/crypto/keys";
import { percentile } from "../scripts/test-support/write-load";

const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const WAITING = Number(process.env.BENCH_WAITING ?? 30);
const SAMPLES = 40;
const ms = (n: number) => `${n.toFixed(0)} ms`;
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

const transfer = (amount: number) => `tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":${amount}}`;
const rule = [{ pattern: "ledger_transfer" }];
const limits = { followUpWindowSeconds: 3600 };
const gated = { entryAgent: "clerk", agents: [{ name: "clerk", model: "demo/clerk", tools: ["ledger_transfer"], approvalRules: rule }], limits };
const nested = {
  entryAgent: "lead",
  agents: [
    { name: "lead", model: "demo/lead", subAgents: ["payer"] },
    { name: "payer", model: "demo/payer", tools: ["ledger_transfer"], approvalRules: rule },
  ],
  limits: { ...limits, subAgentIdleTimeoutSeconds: 3600 },
};
const idle = { entryAgent: "idle", agents: [{ name: "idle", model: "demo/idle" }], limits };

async function inBatches<T>(count: number, size: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < count; i += size) out.push(...(await Promise.all(Array.from({ length: Math.min(size, count - i) }, (_, j) => make(i + j)))));
  return out;
}

/** The naive alternative: every running run is asked what it has pending. */
async function fanOut(engine: Engine, client: Client): Promise<ApprovalRequest[]> {
  const runs = await engine.listRuns({ includeSubRuns: true, limit: 5_000 });
  const open = runs.filter((r) => r.temporalStatus === "RUNNING");
  const lists = await Promise.all(open.map((r) => client.workflow.getHandle(r.runId).query(pendingApprovalsQuery).catch((): ApprovalRequest[] => [])));
  return lists.flat();
}

async function timed<T>(samples: number, fn: () => Promise<T>): Promise<{ latencies: number[]; last: T | undefined }> {
  const latencies: number[] = [];
  let last: T | undefined;
  for (let i = 0; i < samples; i++) {
    const t = performance.now();
    last = await fn();
    latencies.push(performance.now() - t);
  }
  return { latencies, last };
}

interface Visibility {
  /** Run start → listed by the inbox (includes the engine's work before the request). */
  fromStart: number[];
  /** The approval's request (its requestedAt, written by the workflow) → listed by the inbox. */
  fromRequest: number[];
}

/** Starts `count` gated runs and polls the inbox every `intervalMs` until each is listed. */
async function requestToVisible(engine: Engine, db: Db, count: number, intervalMs: number): Promise<Visibility> {
  const started = new Map<string, number>();
  const seen = new Map<string, { at: number; requestedAt: string }>();
  const starting = inBatches(count, 5, async (i) => {
    await sleep(i * 100);
    const t = Date.now();
    const { runId } = await engine.startRun({ graph: gated, task: transfer(1000 + i) });
    started.set(runId, t);
  });
  let done = false;
  void starting.then(() => (done = true));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && (!done || seen.size < started.size)) {
    const tick = Date.now();
    const { items } = await loadInbox(engine, db);
    // Same machine, same clock: the workflow's requestedAt compares with Date.now() here.
    const now = Date.now();
    for (const item of items) if (started.has(item.rootRunId) && !seen.has(item.rootRunId)) seen.set(item.rootRunId, { at: now, requestedAt: item.requestedAt });
    await sleep(Math.max(0, intervalMs - (now - tick)));
  }
  const runs = [...started];
  return {
    fromStart: runs.map(([runId, t]) => (seen.get(runId)?.at ?? Number.POSITIVE_INFINITY) - t),
    fromRequest: runs.map(([runId]) => {
      const s = seen.get(runId);
      return s ? s.at - Date.parse(s.requestedAt) : Number.POSITIVE_INFINITY;
    }),
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "zap-bench-inbox-"));
  const [port, uiPort, httpPort] = [await freePort(), await freePort(), await freePort()];
  const temporal = spawnDevServer({ cli: await provisionTemporalCli(), host: "127.0.0.1", port, uiPort, httpPort, headless: true, dbFile: path.join(dir, "t.db"), namespace: "default", logFile: path.join(dir, "t.log") });
  const address = `127.0.0.1:${port}`;
  const database = await freshSqlite();
  let worker: ChildProcess | undefined;
  let connection: Connection | undefined;
  const db = createDb(database.url);
  try {
    await waitForTemporal({ address }, temporal, 60_000);
    await applyMigrations(database.url);
    await seedDatabase(db, { demo: true });
    const taskQueue = `bench-${randomUUID()}`;
    const config = parseEnv({ TEMPORAL_ADDRESS: address, DATABASE_URL: database.url, TEMPORAL_TASK_QUEUE: taskQueue, AUTH_SECRET: TEST_AUTH_SECRET });
    worker = await startWorkerProcess({ temporalAddress: address, taskQueue, databaseUrl: database.url });
    connection = await Connection.connect({ address });
    const client = new Client({ connection, dataConverter: { payloadCodecs: [createClaimCheckCodec({ db, thresholdBytes: config.temporal.payloadOffloadBytes })] } });
    // Decisions are signed with the key the worker process checks them with.
    const engine = createEngine({ temporal: client, db, taskQueue, decisionKey: configuredKey(config, "approval-decisions") });

    const nestedCount = Math.round(WAITING / 3);
    console.log(`inbox: ${RUNS} running runs, ${WAITING} waiting (${nestedCount} in sub-agents)`);
    let t = performance.now();
    await inBatches(RUNS, 25, (i) => {
      if (i < WAITING - nestedCount) return engine.startRun({ graph: gated, task: transfer(i + 1) });
      if (i < WAITING) return engine.startRun({ graph: nested, task: `message payer: ${transfer(i + 1)}\nanswer: done` });
      return engine.startRun({ graph: idle, task: "answer: waiting for a follow-up" });
    });
    const ready = async () => (await engine.listPendingApprovals()).length;
    while ((await ready()) < WAITING) await sleep(250);
    console.log(`   set up in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    // Alternate the two, so neither gets a quieter moment than the other.
    const inboxLatencies: number[] = [];
    const fanLatencies: number[] = [];
    let listed = 0;
    let fannedOut = 0;
    for (let i = 0; i < SAMPLES; i++) {
      const a = await timed(1, () => loadInbox(engine, db));
      inboxLatencies.push(...a.latencies);
      listed = a.last?.items.length ?? 0;
      const b = await timed(1, () => fanOut(engine, client));
      fanLatencies.push(...b.latencies);
      fannedOut = b.last?.filter((x) => x.status === "pending").length ?? 0;
    }
    const [i50, i95, f50, f95] = [percentile(inboxLatencies, 50), percentile(inboxLatencies, 95), percentile(fanLatencies, 50), percentile(fanLatencies, 95)];
    console.log(`   inbox refresh (${listed} listed): p50 ${ms(i50)}, p95 ${ms(i95)}   [target p95 ≤ 250 ms]`);
    console.log(`   naive fan-out (${fannedOut} found): p50 ${ms(f50)}, p95 ${ms(f95)}`);
    console.log(`   fan-out / inbox: p50 ${(f50 / i50).toFixed(1)}×, p95 ${(f95 / i95).toFixed(1)}×   [target ≥ 5×]`);

    const asPage = await requestToVisible(engine, db, 20, 1_000);
    const backToBack = await requestToVisible(engine, db, 20, 0);
    const line = (v: number[]) => `p50 ${ms(percentile(v, 50))}, p95 ${ms(percentile(v, 95))}`;
    console.log(`   request → visible, polled every 1 s like the page: ${line(asPage.fromRequest)}; polled back to back: ${line(backToBack.fromRequest)}   [target p95 ≤ 1.5 s]`);
    console.log(`   (run start → visible, including the run's first model call: like the page ${line(asPage.fromStart)}; back to back ${line(backToBack.fromStart)})`);

    // 100 decisions at once: top up to 100 waiting, then decide them all concurrently.
    const pendingNow = await engine.listPendingApprovals();
    const extra = Math.max(0, 100 - pendingNow.length);
    const topUp = await inBatches(extra, 25, (i) => engine.startRun({ graph: gated, task: transfer(2000 + i) }));
    const topIds = new Set(topUp.map((r) => r.runId));
    while ((await engine.listPendingApprovals()).filter((a) => topIds.has(a.rootRunId)).length < extra) await sleep(250);
    const toDecide = (await engine.listPendingApprovals()).slice(0, 100);
    const u = await db.user.findUniqueOrThrow({ where: { email: "approver@zap.local" } });
    const approver = { id: u.id, email: u.email, name: u.name, role: u.role as Role };
    const latencies: number[] = [];
    t = performance.now();
    const outcomes = await Promise.all(
      toDecide.map(async (a) => {
        const start = performance.now();
        const [outcome] = await decideMany(engine, approver, { items: [{ runId: a.runId, approvalId: a.id }], approved: true });
        latencies.push(performance.now() - start);
        return outcome;
      }),
    );
    const wall = performance.now() - t;
    const errors = outcomes.filter((o) => !o?.ok);
    console.log(`   ${toDecide.length} concurrent decisions: ${errors.length} errors, p50 ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))}, all in ${ms(wall)}${errors.length ? ` (${errors.slice(0, 3).map((e) => (e && !e.ok ? e.message : "")).join("; ")})` : ""}`);
    const recorded = await db.approvalRecord.count({ where: { id: { in: toDecide.map((a) => a.id) }, status: "approved" } });
    const decidedIds = new Set(toDecide.map((a) => a.id));
    const stillPending = (await engine.listPendingApprovals()).filter((a) => decidedIds.has(a.id)).length;
    console.log(`   recorded approved: ${recorded} of ${toDecide.length}; still pending in their runs afterwards: ${stillPending}`);
  } finally {
    if (worker) await stopWorkerProcess(worker);
    await connection?.close();
    await db.$disconnect();
    await database.drop();
    temporal.kill("SIGTERM");
    await new Promise((r) => temporal.once("exit", r));
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
