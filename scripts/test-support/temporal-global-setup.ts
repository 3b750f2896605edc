// Starts one real Temporal dev server (in memory, on free ports), bundles the
// workflow code and builds a migrated, seeded SQLite template once for the
// integration tests, and cleans up afterwards. Both integration projects
// (parallel and serial, see vitest.config.ts) run this setup in the same
// vitest process; they share all three.
import os from "node:os";
import path from "node:path";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { bundleWorkflowCode } from "@temporalio/worker";
import type { TestProject } from "vitest/node";
import { provisionTemporalCli } from "../lib/temporal-cli";
import { spawnDevServer, waitForTemporal } from "../lib/temporal-server";
import { freePort } from "./ports";
import { applyMigrations } from "../db/migrate";
import { createDb } from "../../lib/db/prisma";
import { seedDatabase } from "../../lib/seed/seed";
import { buildPostgresTemplates, type PostgresTemplates } from "./postgres-templates";
import { withMinimalSourceMap } from "./minimal-source-map";

// worker/worker.ts's WORKFLOWS_PATH, without loading the worker (Prisma, activities) into the vitest process.
const WORKFLOWS_PATH = path.resolve(import.meta.dirname, "../../worker/workflows/index.ts");

/** Temporal Cloud refuses a payload over 2 MB and warns over 512 KB. */
export const TEMPORAL_CLOUD_BLOB_LIMITS = { errorBytes: 2 * 1024 * 1024, warnBytes: 512 * 1024 } as const;

declare module "vitest" {
  export interface ProvidedContext {
    temporalAddress: string;
    temporalCli: string;
    /** The workflow bundle every in-process worker loads (webpack once, not once per file). */
    workflowBundlePath: string;
    /** A SQLite file with every migration applied and the demo seed: the engine harness copies it. */
    sqliteTemplatePath: string;
    /** PostgreSQL databases to copy (scripts/test-support/postgres-templates.ts); null when no PostgreSQL answers. */
    postgresTemplates: { migrated: string; seeded: string } | null;
  }
}

interface SharedSetup {
  address: string;
  cli: string;
  bundlePath: string;
  templatePath: string;
  postgresTemplates: PostgresTemplates | null;
  users: number;
  stop: () => Promise<void>;
}

// globalThis, not a module variable: each project loads this file as its own module instance.
const SHARED = Symbol.for("zap.integration.globalSetup");
type Holder = { [SHARED]?: Promise<SharedSetup> };

/** Migrates and seeds a SQLite file as the engine harness would, and leaves it closed with no WAL beside it. */
async function buildSqliteTemplate(file: string): Promise<void> {
  const url = `file:${file}`;
  await applyMigrations(url);
  const db = createDb(url);
  try {
    await seedDatabase(db, { demo: true });
    await db.$queryRawUnsafe("PRAGMA wal_checkpoint(TRUNCATE)");
  } finally {
    await db.$disconnect();
  }
}

async function startShared(): Promise<SharedSetup> {
  const cli = await provisionTemporalCli();
  const [port, uiPort, httpPort, metricsPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const dir = mkdtempSync(path.join(os.tmpdir(), "zap-it-temporal-"));
  const address = `127.0.0.1:${port}`;
  const child = spawnDevServer({
    cli,
    host: "127.0.0.1",
    port,
    uiPort,
    httpPort,
    metricsPort,
    headless: true,
    dbFile: path.join(dir, "temporal.db"),
    namespace: "default",
    logFile: path.join(dir, "temporal.log"),
    // Temporal Cloud's payload limits, so a payload too large for production fails here too.
    dynamicConfig: { "limit.blobSize.error": TEMPORAL_CLOUD_BLOB_LIMITS.errorBytes, "limit.blobSize.warn": TEMPORAL_CLOUD_BLOB_LIMITS.warnBytes },
  });
  const bundlePath = path.join(dir, "workflow-bundle.js");
  const templatePath = path.join(dir, "template", "zap.db");
  mkdirSync(path.dirname(templatePath));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const quiet = { info() {}, warn() {}, error: console.error, debug() {}, trace() {}, log() {} };
  // npm test hands scale-out the bundle `npm start` made from this checkout's workflow code (its fingerprint
  // checked: scripts/lib/workflow-bundle.ts), sparing a webpack run on the path where it runs alone.
  const given = process.env.ZAP_TEST_WORKFLOW_BUNDLE;
  const bundle = given ? Promise.resolve({ code: readFileSync(given, "utf8") }) : bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quiet });
  // Built beside the bundle and the server's start; dropped with them (stop, below).
  const postgresTemplates = buildPostgresTemplates();
  try {
    const [{ code }] = await Promise.all([bundle, waitForTemporal({ address }, child, 60_000), buildSqliteTemplate(templatePath), postgresTemplates]);
    writeFileSync(bundlePath, withMinimalSourceMap(code));
    // And integration hands its bundle to npm test, which puts it where e2e's `npm start` looks (same call, same inputs).
    const handOver = process.env.ZAP_TEST_WORKFLOW_BUNDLE_OUT;
    if (handOver && !given) writeFileSync(handOver, code);
  } catch (error) {
    await stop();
    await (await postgresTemplates.catch(() => null))?.drop();
    throw error;
  }
  const templates = await postgresTemplates;
  const stopAll = async () => {
    await stop();
    await templates?.drop();
  };
  return { address, cli, bundlePath, templatePath, postgresTemplates: templates, users: 0, stop: stopAll };
}

export default async function setup(project: TestProject) {
  const holder = globalThis as Holder;
  holder[SHARED] ??= startShared();
  const shared = await holder[SHARED];
  shared.users += 1;
  project.provide("temporalAddress", shared.address);
  project.provide("temporalCli", shared.cli);
  project.provide("workflowBundlePath", shared.bundlePath);
  project.provide("sqliteTemplatePath", shared.templatePath);
  project.provide("postgresTemplates", shared.postgresTemplates && { migrated: shared.postgresTemplates.migrated, seeded: shared.postgresTemplates.seeded });
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete holder[SHARED];
    await shared.stop();
  };
}
