// bench/write-load: decisions and side effects written concurrently from the
// web side and a worker process into one database, on SQLite and PostgreSQL.
//   For each provider: N runs wait for approval; two approvers decide all of
//   them at once while N more runs make ledger transfers (the same scenario as
//   worker/engine-tests/write-load.int.test.ts). Prints decision latency p50 /
//   p95, errors, wall time, and the ratio to the uncontended baseline measured
//   in the same run (the same N decisions sent one at a time).
//
//   npm run bench:write-load        (BENCH_RUNS overrides N, default 100)
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { Client, Connection } from "@temporalio/client";
import { parseEnv } from "../lib/config/env";
import { createDb } from "../lib/db/prisma";
import { seedDatabase } from "../lib/seed/seed";
import { createEngine } from "../lib/engine/client";
import { createClaimCheckCodec } from "../lib/temporal/claim-check-codec";
import { applyMigrations } from "../scripts/db/migrate";
import { provisionTemporalCli } from "../scripts/lib/temporal-cli";
import { spawnDevServer, waitForTemporal } from "../scripts/lib/temporal-server";
import { freePort } from "../scripts/test-support/ports";
import { freshPostgres, freshSqlite, postgresReachable, type TestDatabase } from "../scripts/test-support/databases";
import { startWorkerProcess, stopWorkerProcess } from "../scripts/test-support/worker-process";
import { TEST_AUTH_SECRET } from "../scripts/test-support/test-keys";
import { configuredKey } from "../lib/crypto/keys";
import { writeWorkspacePolicy } from "../lib/policy/store";
import { percentile, runWriteLoad, writeLoadProblems, type Approver } from "../scripts/test-support/write-load";

const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const ms = (n: number) => `${n.toFixed(0)} ms`;

async function measure(address: string, database: TestDatabase): Promise<void> {
  await applyMigrations(database.url);
  const db = createDb(database.url);
  await seedDatabase(db, { demo: true });
  // The "free" runs transfer without a rule: exempt here, as an admin could (the gated runs' own rule still applies).
  await writeWorkspacePolicy(db, null, { exemptTools: ["ledger_transfer"] });
  const taskQueue = `bench-${randomUUID()}`;
  const config = parseEnv({ TEMPORAL_ADDRESS: address, DATABASE_URL: database.url, TEMPORAL_TASK_QUEUE: taskQueue, AUTH_SECRET: TEST_AUTH_SECRET });
  let worker: ChildProcess | undefined;
  const connection = await Connection.connect({ address });
  try {
    worker = await startWorkerProcess({ temporalAddress: address, taskQueue, databaseUrl: database.url });
    const payloadCodecs = [createClaimCheckCodec({ db, thresholdBytes: config.temporal.payloadOffloadBytes })];
    const engine = createEngine({ temporal: new Client({ connection, dataConverter: { payloadCodecs } }), db, taskQueue, decisionKey: configuredKey(config, "approval-decisions") });
    const approver = async (email: string): Promise<Approver> => {
      const u = await db.user.findUniqueOrThrow({ where: { email } });
      return { id: u.id, email: u.email, role: u.role };
    };
    const approvers: [Approver, Approver] = [await approver("approver@zap.local"), await approver("admin@zap.local")];

    const baseline = await runWriteLoad(engine, db, { runs: Math.min(RUNS, 30), approvers, decideSequentially: true });
    const loaded = await runWriteLoad(engine, db, { runs: RUNS, approvers });
    const problems = await writeLoadProblems(engine, db, loaded);
    const b50 = percentile(baseline.decisionLatenciesMs, 50);
    const p50 = percentile(loaded.decisionLatenciesMs, 50);
    const p95 = percentile(loaded.decisionLatenciesMs, 95);
    console.log(`${database.provider}:`);
    console.log(`   baseline, one decision at a time (${baseline.decisionLatenciesMs.length}): p50 ${ms(b50)}, p95 ${ms(percentile(baseline.decisionLatenciesMs, 95))}`);
    console.log(`   ${RUNS} concurrent decisions + ${RUNS} transfers: p50 ${ms(p50)}, p95 ${ms(p95)}; ratio to baseline p50 ${(p50 / b50).toFixed(1)}×, p95 ${(p95 / b50).toFixed(1)}×`);
    console.log(`   wall ${(loaded.wallMs / 1000).toFixed(1)} s until all ${2 * RUNS} runs completed; errors ${loaded.errors.length}; problems ${problems.length}${problems.length ? ` (${problems.slice(0, 3).join("; ")})` : ""}`);
  } finally {
    if (worker) await stopWorkerProcess(worker);
    await connection.close();
    await db.$disconnect();
    await database.drop();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "zap-bench-write-"));
  const [port, uiPort, httpPort] = [await freePort(), await freePort(), await freePort()];
  const temporal = spawnDevServer({ cli: await provisionTemporalCli(), host: "127.0.0.1", port, uiPort, httpPort, headless: true, dbFile: path.join(dir, "t.db"), namespace: "default", logFile: path.join(dir, "t.log") });
  try {
    const address = `127.0.0.1:${port}`;
    await waitForTemporal({ address }, temporal, 60_000);
    console.log(`write load: ${RUNS} approval decisions by two approvers (web side) while ${RUNS} transfers run (worker process)`);
    await measure(address, await freshSqlite());
    if (await postgresReachable()) await measure(address, await freshPostgres());
    else console.log("postgresql: not reachable, skipped");
  } finally {
    temporal.kill("SIGTERM");
    await new Promise((r) => temporal.once("exit", r));
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
