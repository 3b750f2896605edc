// Starts `worker/main.ts` as a separate process against a given Temporal task
// queue and database, as `npm start` runs it: tests that need a real process
// boundary (crashes, two processes writing one database) use it. Tests pass
// the run's shared workflow bundle (env ZAP_WORKFLOW_BUNDLE, as `npm start`
// does), so each process starts without a webpack build of its own.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { TEST_AUTH_SECRET } from "./test-keys";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface WorkerProcessOptions {
  temporalAddress: string;
  taskQueue: string;
  databaseUrl: string;
  env?: Record<string, string>;
}

/** Resolves once the worker polls its task queue; rejects with its output if it exits first. */
export function startWorkerProcess(options: WorkerProcessOptions): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "worker/main.ts"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, AUTH_SECRET: TEST_AUTH_SECRET, TEMPORAL_ADDRESS: options.temporalAddress, TEMPORAL_TASK_QUEUE: options.taskQueue, DATABASE_URL: options.databaseUrl, ...options.env },
  });
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      if (process.env.ZAP_TEST_WORKER_LOG) process.stderr.write(`[worker ${child.pid}] ${chunk.toString()}`);
      output = (output + chunk.toString()).slice(-20_000);
      if (output.includes("worker: polling")) resolve(child);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`worker exited early (${code}): ${output.slice(-2000)}`)));
  });
}

/** Stops a worker process (SIGTERM, then SIGKILL after a grace period). */
export async function stopWorkerProcess(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}
