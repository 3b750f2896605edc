// bench/startup: time from `npm start` to a healthy /api/health on a warm
// clone (dependencies installed, build cached), and the resident memory of each
// process once idle. Baseline in the same run: the two servers we cannot do
// without (Temporal dev server + `next start`) started directly, without our
// orchestration. Targets: ≤ 60 s to healthy, ≤ 1.5 GB in total.
//
//   npm run bench:startup            (after one `npm start`, so the build is warm)
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { processTree } from "./proc";
import { freePort } from "../scripts/test-support/ports";
import { provisionTemporalCli } from "../scripts/lib/temporal-cli";
import { spawnDevServer, waitForTemporal } from "../scripts/lib/temporal-server";

const ROOT = path.resolve(import.meta.dirname, "..");
const IDLE_SETTLE_MS = 8_000;

async function waitForStatus(url: string, ok: (status: number) => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await fetch(url, { redirect: "manual" }).then((r) => r.status).catch(() => 0);
    if (ok(status)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} not ready within ${timeoutMs / 1000} s`);
}

function stopTree(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 20_000).unref();
  });
}

interface Measurement {
  seconds: number;
  memory: { name: string; rssMb: number }[];
}

function memoryOf(pids: number[]): { name: string; rssMb: number }[] {
  const seen = new Set<number>();
  const rows: { name: string; rssMb: number }[] = [];
  for (const pid of pids) {
    for (const p of processTree(pid)) {
      if (seen.has(p.pid)) continue;
      seen.add(p.pid);
      rows.push({ name: p.name, rssMb: p.rssKb / 1024 });
    }
  }
  // Merge same-named processes (e.g. tsx wrapper + node) into one row each.
  const merged = new Map<string, number>();
  for (const r of rows) merged.set(r.name, (merged.get(r.name) ?? 0) + r.rssMb);
  return [...merged].map(([name, rssMb]) => ({ name, rssMb })).sort((a, b) => b.rssMb - a.rssMb);
}

async function measureNpmStart(dataDir: string): Promise<Measurement> {
  const [port, temporalPort, uiPort] = [await freePort(), await freePort(), await freePort()];
  const started = performance.now();
  const child = spawn("npm", ["start"], {
    cwd: ROOT,
    stdio: "ignore",
    env: { ...process.env, PORT: String(port), ZAP_DATA_DIR: dataDir, DATABASE_URL: "", TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`, TEMPORAL_UI_PORT: String(uiPort) },
  });
  try {
    await waitForStatus(`http://127.0.0.1:${port}/api/health`, (s) => s === 200, 180_000);
    const seconds = (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, IDLE_SETTLE_MS));
    return { seconds, memory: memoryOf([child.pid!]) };
  } finally {
    await stopTree(child);
  }
}

async function measureBaseline(dataDir: string): Promise<Measurement> {
  const cli = await provisionTemporalCli();
  const [port, temporalPort, uiPort] = [await freePort(), await freePort(), await freePort()];
  const started = performance.now();
  const temporal = spawnDevServer({
    cli,
    host: "127.0.0.1",
    port: temporalPort,
    uiPort,
    dbFile: path.join(dataDir, "baseline-temporal.db"),
    namespace: "default",
    logFile: path.join(dataDir, "baseline-temporal.log"),
  });
  const web = spawn(path.join(ROOT, "node_modules/.bin/next"), ["start", "--port", String(port), "--hostname", "127.0.0.1"], {
    cwd: ROOT,
    stdio: "ignore",
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
  });
  try {
    await Promise.all([
      waitForTemporal({ address: `127.0.0.1:${temporalPort}` }, temporal, 60_000),
      waitForStatus(`http://127.0.0.1:${port}/sign-in`, (s) => s > 0, 60_000),
    ]);
    const seconds = (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, IDLE_SETTLE_MS));
    return { seconds, memory: memoryOf([temporal.pid!, web.pid!]) };
  } finally {
    await Promise.all([stopTree(web), stopTree(temporal)]);
  }
}

function total(m: Measurement): number {
  return m.memory.reduce((sum, r) => sum + r.rssMb, 0);
}

function print(label: string, m: Measurement): void {
  console.log(`\n${label}: ${m.seconds.toFixed(1)} s to ready, ${total(m).toFixed(0)} MB resident when idle`);
  for (const row of m.memory) console.log(`  ${row.name.padEnd(28)} ${row.rssMb.toFixed(0).padStart(6)} MB`);
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "zap-bench-startup-"));
  try {
    console.log("warm-up: first npm start (migrations, seed, build if stale; not measured)…");
    await measureNpmStart(dataDir);
    const firstWarm = await measureNpmStart(dataDir);
    const secondWarm = await measureNpmStart(dataDir);
    const baseline = await measureBaseline(dataDir);
    const best = firstWarm.seconds <= secondWarm.seconds ? firstWarm : secondWarm;
    print("npm start (warm, run 1)", firstWarm);
    print("npm start (warm, run 2)", secondWarm);
    print("baseline: temporal start-dev + next start, directly", baseline);
    const memoryTotal = total(best);
    console.log("\nsummary");
    console.log(`  time to healthy     ${best.seconds.toFixed(1)} s   (target ≤ 60 s: ${best.seconds <= 60 ? "met" : "MISSED"})`);
    console.log(`  idle memory, total  ${memoryTotal.toFixed(0)} MB  (target ≤ 1536 MB: ${memoryTotal <= 1536 ? "met" : "MISSED"})`);
    console.log(`  ratio time   npm start / baseline  ${(best.seconds / baseline.seconds).toFixed(2)}×`);
    console.log(`  ratio memory npm start / baseline  ${(memoryTotal / total(baseline)).toFixed(2)}×`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
