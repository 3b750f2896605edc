// The stack an engine benchmark measures: a Temporal dev server, a migrated and
// seeded SQLite database, and a worker process loading a prebuilt workflow
// bundle (as `npm start` and a deployment do), plus an engine client.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { bundleWorkflowCode } from "@temporalio/worker";
import { Client, Connection } from "@temporalio/client";
import { parseEnv } from "../../lib/config/env";
import { createDb, type Db } from "../../lib/db/prisma";
import { seedDatabase } from "../../lib/seed/seed";
import { createEngine } from "../../lib/engine/client";
import { configuredKey } from "../../lib/crypto/keys";
import { createClaimCheckCodec } from "../../lib/temporal/claim-check-codec";
import { applyMigrations } from "../../scripts/db/migrate";
import { provisionTemporalCli } from "../../scripts/lib/temporal-cli";
import { spawnDevServer, waitForTemporal } from "../../scripts/lib/temporal-server";
import { freePort } from "../../scripts/test-support/ports";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
/** The benches' key material (the worker and the engine share it; nothing secret is at stake in a bench). */
const BENCH_AUTH_SECRET = "bench-auth-secret-bench-auth-secret-0123456789";
const quietLogger = { info() {}, warn: console.warn, error: console.error, debug() {}, trace() {}, log() {} };

export interface EngineStack {
  engine: ReturnType<typeof createEngine>;
  client: Client;
  db: Db;
  /** The worker process (with `split`, the one that runs workflows). */
  worker: ChildProcess;
  /** With `split`, the process that runs activities; else null. */
  activityWorker: ChildProcess | null;
  /** The worker's SDK metrics (Prometheus text), read now. */
  sdkMetrics(): Promise<string>;
  /** Lines the worker wrote to stderr that carry this warning code (e.g. TMPRL1104: a workflow task held past 5 s). */
  warnings(code: string): number;
  stop(): Promise<void>;
}

export async function startEngineStack(options: { latencyMs: number; name: string; workerArgs?: string[]; split?: boolean }): Promise<EngineStack> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `zap-bench-${options.name}-`));
  const children: ChildProcess[] = [];
  const stopChildren = async () => {
    for (const child of children.reverse()) child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const [port, uiPort, httpPort, metricsPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const temporal = spawnDevServer({ cli: await provisionTemporalCli(), host: "127.0.0.1", port, uiPort, httpPort, headless: true, dbFile: path.join(dir, "t.db"), namespace: "default", logFile: path.join(dir, "t.log") });
    children.push(temporal);
    const address = `127.0.0.1:${port}`;
    await waitForTemporal({ address }, temporal, 60_000);
    const databaseUrl = `file:${path.join(dir, "zap.db")}`;
    await applyMigrations(databaseUrl);
    const db = createDb(databaseUrl);
    await seedDatabase(db, { demo: true });
    const taskQueue = "bench";
    const config = parseEnv({ TEMPORAL_ADDRESS: address, DATABASE_URL: databaseUrl, TEMPORAL_TASK_QUEUE: taskQueue });
    const { code } = await bundleWorkflowCode({ workflowsPath: path.join(ROOT, "worker", "workflows", "index.ts"), logger: quietLogger });
    const bundlePath = path.join(dir, "workflows.js");
    writeFileSync(bundlePath, code);
    const warned = new Map<string, number>();
    const startWorker = async (role: "all" | "workflows" | "activities", metrics: boolean): Promise<ChildProcess> => {
      const child = spawn(process.execPath, [...(options.workerArgs ?? []), "--import", "tsx", "worker/main.ts"], {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
        // One key for both sides, as `npm start` shares AUTH_SECRET: the worker checks the runs the engine signs.
        env: {
          ...process.env,
          AUTH_SECRET: BENCH_AUTH_SECRET,
          TEMPORAL_ADDRESS: address,
          DATABASE_URL: databaseUrl,
          TEMPORAL_TASK_QUEUE: taskQueue,
          ZAP_DEMO_LATENCY_MS: String(options.latencyMs),
          ZAP_WORKFLOW_BUNDLE: bundlePath,
          ZAP_WORKER_ROLE: role,
          ...(metrics ? { ZAP_WORKER_METRICS_ADDRESS: `127.0.0.1:${metricsPort}` } : {}),
        },
      });
      children.push(child);
      child.stderr?.on("data", (d: Buffer) => {
        process.stderr.write(d);
        for (const code of d.toString().match(/TMPRL\d{4}/g) ?? []) warned.set(code, (warned.get(code) ?? 0) + 1);
      });
      await new Promise<void>((resolve) => child.stdout?.on("data", (d: Buffer) => d.toString().includes("worker: polling") && resolve()));
      return child;
    };
    // Split: one process for workflow tasks (the metrics are its), one for activities (the database's work).
    const worker = await startWorker(options.split ? "workflows" : "all", true);
    const activityWorker = options.split ? await startWorker("activities", false) : null;
    const connection = await Connection.connect({ address });
    // The worker offloads large payloads; the client must read them back the same way.
    const client = new Client({ connection, dataConverter: { payloadCodecs: [createClaimCheckCodec({ db, thresholdBytes: config.temporal.payloadOffloadBytes })] } });
    const engine = createEngine({ temporal: client, db, taskQueue: config.temporal.taskQueue, decisionKey: configuredKey({ keyMaterial: BENCH_AUTH_SECRET }, "approval-decisions") });
    return {
      engine,
      client,
      db,
      worker,
      activityWorker,
      async sdkMetrics() {
        return (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      },
      warnings: (code) => warned.get(code) ?? 0,
      async stop() {
        await connection.close();
        await db.$disconnect();
        await stopChildren();
      },
    };
  } catch (error) {
    await stopChildren();
    throw error;
  }
}
