// A finished run's page data (header, trace with its sub-run, span details,
// conversation, list row) is read from the ledger: it is the same before,
// while Temporal and the worker are down, and after both restart.
import os from "node:os";
import path from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import { copyFile } from "node:fs/promises";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, Connection } from "@temporalio/client";
import { inject } from "vitest";
import { createDb, type Db } from "../../db/prisma";
import { sqliteFilePath } from "../../config/database";
import { createEngine } from "../../engine/client";
import { spawnDevServer, waitForTemporal } from "../../../scripts/lib/temporal-server";
import { freePort } from "../../../scripts/test-support/ports";
import { freshSqlite, type TestDatabase } from "../../../scripts/test-support/databases";
import { startWorkerProcess, stopWorkerProcess } from "../../../scripts/test-support/worker-process";
import { TEST_AUTH_SECRET } from "../../../scripts/test-support/test-keys";
import { configuredKey } from "../../crypto/keys";
import { eventually } from "../../../scripts/test-support/engine-harness";

const dir = mkdtempSync(path.join(os.tmpdir(), "zap-it-restart-"));
const taskQueue = "restart-test";
let address = "";
let ports: { port: number; uiPort: number; httpPort: number; metricsPort: number };
let temporal: ChildProcess | null = null;
let worker: ChildProcess | null = null;
let database: TestDatabase;
let db: Db;

async function startTemporal(): Promise<void> {
  temporal = spawnDevServer({ cli: inject("temporalCli"), host: "127.0.0.1", ...ports, headless: true, dbFile: path.join(dir, "temporal.db"), namespace: "default", logFile: path.join(dir, "temporal.log") });
  await waitForTemporal({ address }, temporal, 60_000);
}

async function stopTemporal(): Promise<void> {
  const child = temporal;
  temporal = null;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

beforeAll(async () => {
  ports = { port: await freePort(), uiPort: await freePort(), httpPort: await freePort(), metricsPort: await freePort() };
  address = `127.0.0.1:${ports.port}`;
  database = await freshSqlite();
  // The server starts while the database is made. The database is a copy of the global setup's migrated, seeded
  // template (as the engine harness makes one): no Prisma CLI run and no bcrypt hashes here (scripts/db/migrations.int.test.ts
  // tests migrating and seeding).
  await Promise.all([copyFile(inject("sqliteTemplatePath"), sqliteFilePath(database.url)), startTemporal()]);
  db = createDb(database.url);
  // The page's server modules read their configuration from the environment, once.
  process.env.DATABASE_URL = database.url;
  process.env.TEMPORAL_ADDRESS = address;
  process.env.TEMPORAL_TASK_QUEUE = taskQueue;
  worker = await startWorkerProcess({ temporalAddress: address, taskQueue, databaseUrl: database.url, env: { ZAP_WORKFLOW_BUNDLE: inject("workflowBundlePath") } });
});

afterAll(async () => {
  if (worker) await stopWorkerProcess(worker);
  await stopTemporal();
  await db?.$disconnect();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe("a finished run's page", () => {
  it("reads the same before, during and after a restart of the worker and the Temporal dev server", async () => {
    const { runHeader, runSpans, runMessages, listRunPage } = await import("./runs");
    const { spanDetails } = await import("./details");
    const connection = await Connection.connect({ address });
    // Signed as the web server signs runs: the worker process checks with the test key.
    const engine = createEngine({ temporal: new Client({ connection }), db, taskQueue, decisionKey: configuredKey({ keyMaterial: TEST_AUTH_SECRET }, "approval-decisions") });
    const graph = {
      entryAgent: "lead",
      agents: [
        { name: "lead", model: "demo/lead", tools: ["calculator"], subAgents: ["helper"] },
        { name: "helper", model: "demo/helper", description: "does sums", tools: ["calculator"] },
      ],
      limits: { followUpWindowSeconds: 0, subAgentIdleTimeoutSeconds: 1 },
    };
    const { runId } = await engine.startRun({ graph, task: 'tool calculator {"expression":"6*7"} && message helper: What is 1+1?\nanswer: done' });
    await eventually(() => engine.getRun(runId), (s) => s.status === "completed", 30_000, "the run to complete");
    await connection.close();

    const snapshot = async () => {
      const spans = await runSpans(runId);
      const child = spans.find((s) => s.kind === "sub_agent")?.attributes?.conversationId;
      const childSpans = typeof child === "string" ? await runSpans(child) : [];
      const details = await Promise.all([...spans, ...childSpans].map((s) => spanDetails(s.runId, s.id)));
      const page = await listRunPage({ page: 1, pageSize: 25 });
      const row = page.rows.find((r) => r.runId === runId);
      return { header: await runHeader(runId), spans, childSpans, details, messages: await runMessages(runId, 0), row: row && { ...row, temporalStatus: null, subRuns: row.subRuns.map((s) => ({ ...s, temporalStatus: null })) } };
    };
    // The parent ends its conversations as it completes: wait until the sub-run's ledger says it ended too.
    const ended = (status: string) => ["completed", "failed", "cancelled"].includes(status);
    const before = await eventually(snapshot, (s) => s.childSpans.length > 0 && s.childSpans.every((c) => c.status !== "running") && (s.row?.subRuns.every((r) => ended(r.status)) ?? false), 15_000, "the sub-run to end");
    expect(before.childSpans.some((s) => s.kind === "tool" && s.name === "calculator"), "the helper planned a calculator call from plain English").toBe(true);
    expect(before.header.total.tokens.inputTokens).toBeGreaterThan(before.header.self.tokens.inputTokens);
    expect(before.row?.subRuns.map((r) => r.status), "a conversation its parent closed after the answer ended completed, not cancelled").toEqual(["completed"]);

    if (worker) await stopWorkerProcess(worker);
    worker = null;
    await stopTemporal();
    const down = await snapshot();
    expect(down).toEqual(before);
    expect((await listRunPage({ page: 1, pageSize: 25 })).temporalNote).toMatch(/not answering/);

    await startTemporal();
    worker = await startWorkerProcess({ temporalAddress: address, taskQueue, databaseUrl: database.url, env: { ZAP_WORKFLOW_BUNDLE: inject("workflowBundlePath") } });
    expect(await snapshot()).toEqual(before);
  });
});
