// A newcomer's first `npm start -- --local-model`: a fresh clone of the
// committed HEAD (or FIRST_RUN_REF), nothing generated, built or seeded, no
// network. It must come up healthy, let a demo user sign in, run a demo agent
// on the local model (llama-server from the cache npm test filled), survive
// SIGKILLed children (runs in progress still complete), and stop every process
// on Ctrl-C — even while a restart is waiting.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { provisionTemporalCli } from "../lib/temporal-cli";
import { LOCAL_MODEL } from "../lib/local-model";
import { freePort } from "../test-support/ports";
import { cloneWithDependencies, NpmStart, signIn, until, type StackPart } from "./support";

const work = mkdtempSync(path.join(os.tmpdir(), "zap-first-run-"));
const clone = path.join(work, "clone");
const dataDir = path.join(work, "data");
let origin = "";
let stack: NpmStart | undefined;
let builder = "";
let failed = false;

/** The running stack, once the first test brought it up. */
function up(): NpmStart {
  if (!stack || !builder) throw new Error("npm start did not come up (see the first test)");
  return stack;
}

async function api<T>(method: "GET" | "POST", route: string, body?: object): Promise<{ status: number; json: T | undefined }> {
  const response = await fetch(`${origin}${route}`, {
    method,
    // Mutating API calls must come from the app's own origin, as a browser's would.
    headers: { cookie: builder, ...(method === "POST" ? { origin } : {}), ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    // A query to a run waits for a worker: while one restarts, give up and poll again. A start is not polled
    // again, and its first call loads the route and starts a workflow beside e2e: 5 s cut it off on CI (status 0,
    // stop 46), so a POST gets a hang detector's minute.
    signal: AbortSignal.timeout(method === "POST" ? 60_000 : 5_000),
  }).catch(() => undefined);
  if (!response) return { status: 0, json: undefined };
  return { status: response.status, json: (await response.json().catch(() => undefined)) as T | undefined };
}

interface RunSummary {
  status: string;
  output?: string;
}

async function run(runId: string): Promise<RunSummary | undefined> {
  return (await api<{ run?: RunSummary }>("GET", `/api/runs/${runId}`)).json?.run;
}

function pidOf(npm: NpmStart, part: StackPart): Promise<number> {
  return until(`the ${part} process under npm start`, () => npm.parts()[part], { timeoutMs: 30_000, abort: npm.gone });
}

/** SIGKILLs one part of the stack mid-run; the run must still complete, with no action from the user. */
async function killDuringRun(part: StackPart): Promise<void> {
  const npm = up();
  const started = await api<{ runId: string }>("POST", "/api/runs", { graph: "research-loop", task: `think 3000\nanswer: survived a ${part} crash` });
  expect(started.status, "POST /api/runs").toBe(201);
  const runId = started.json?.runId ?? "";
  await until("the run is thinking", async () => ((await run(runId))?.status === "thinking" ? true : undefined), { timeoutMs: 30_000, intervalMs: 50, abort: npm.gone });

  const victim = await pidOf(npm, part);
  process.kill(victim, "SIGKILL");
  const restartLine = new RegExp(`↻ ${part} exited \\(signal SIGKILL\\); restarting in \\d+ s \\(restart \\d+\\)`);
  await until(`npm start says it restarts the ${part}`, () => (restartLine.test(npm.text) ? true : undefined), { timeoutMs: 10_000, abort: npm.gone });
  await until(
    `a new ${part} process`,
    () => {
      const pid = npm.parts()[part];
      return pid !== undefined && pid !== victim ? pid : undefined;
    },
    { timeoutMs: 30_000, abort: npm.gone },
  );

  const done = await until(`the run completes after the ${part} crash`, async () => {
    const summary = await run(runId);
    return summary && ["completed", "failed", "cancelled"].includes(summary.status) ? summary : undefined;
  }, { timeoutMs: 120_000, intervalMs: 500, abort: npm.gone });
  expect(done).toMatchObject({ status: "completed", output: `survived a ${part} crash` });
}

beforeAll(async () => {
  const commit = cloneWithDependencies(clone, process.env.FIRST_RUN_REF);
  console.log(`first-run: ${commit.slice(0, 10)} cloned into ${clone}`);
  expect(existsSync(path.join(clone, "lib/db/generated")) || existsSync(path.join(clone, ".next")), "the clone must start with nothing generated or built").toBe(false);
  const [port, temporalPort, uiPort, modelPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  origin = `http://127.0.0.1:${port}`;
  // A clean environment: nothing the caller set for its own stack (or vitest's NODE_ENV) leaks in.
  const env = { ...process.env };
  // (The cache of the local model is the machine's, as a newcomer's would be; an explicit one is kept.)
  for (const key of Object.keys(env)) if (/^(ZAP_|TEMPORAL_|AUTH_|DATABASE_URL$|PORT$|HOST$|NODE_ENV$|E2E_|FIRST_RUN_|OPENAI_COMPATIBLE_)/.test(key) && key !== "ZAP_CACHE_DIR") delete env[key];
  Object.assign(env, {
    PORT: String(port),
    ZAP_DATA_DIR: dataDir,
    TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
    TEMPORAL_UI_PORT: String(uiPort),
    ZAP_LOCAL_MODEL_PORT: String(modelPort),
    // The CLI npm test provisioned, so the clone need not download its own.
    TEMPORAL_CLI: process.env.TEMPORAL_CLI ?? (await provisionTemporalCli()),
    npm_config_update_notifier: "false",
    // npm test's typecheck passed on these very files (a clean checkout, the clone of its HEAD): the build skips
    // its second check of them, as npm test's own prebuild does. Run alone, the clone's build checks types.
    ...(process.env.FIRST_RUN_TYPES_CHECKED === "1" ? { ZAP_BUILD_TYPES_CHECKED: "1" } : {}),
  });
  stack = new NpmStart(clone, env, [clone, dataDir], ["--local-model"]);
});

afterEach((context) => {
  if (context.task.result?.state === "fail") failed = true;
});

afterAll(() => {
  stack?.killEverything();
  if (failed) console.log(`first-run: kept ${work} for inspection; npm start said:\n${stack?.tail(80) ?? ""}`);
  else rmSync(work, { recursive: true, force: true });
});

describe.sequential("npm start on a fresh clone", () => {
  test("comes up healthy with no install, and a demo user signs in", async () => {
    const npm = stack;
    if (!npm) throw new Error("npm start was not spawned");
    const startedAt = performance.now();
    const health = () => fetch(`${origin}/api/health`).then((r) => (r.status === 200 ? true : undefined));
    // A hang detector, not a speed target: `npm test` runs this beside e2e, and the clone's first build
    // shares the machine with it (alone on two cores it is healthy in ~75 s; the time is printed below). On a
    // machine 2.5 times slower (AMD EPYC 2.4 GHz: typecheck 74 s against 31 s) that build outlasted 600 s.
    await until("/api/health answers 200", health, { timeoutMs: 1_200_000, intervalMs: 500, abort: npm.gone });
    console.log(`first-run: healthy ${((performance.now() - startedAt) / 1000).toFixed(0)} s after npm start`);
    expect(npm.text, "bootstrap must not install anything").toContain("✓ dependencies up to date");
    await until("the ready banner", () => (npm.text.includes("Zap Studio is ready") ? true : undefined), { timeoutMs: 10_000, abort: npm.gone });

    builder = await signIn(origin, "builder@zap.local", "builder-demo");
    const session = (await (await fetch(`${origin}/api/auth/session`, { headers: { cookie: builder } })).json()) as { user?: { email?: string } };
    expect(session.user?.email).toBe("builder@zap.local");
  });

  test("--local-model serves a demo agent on a real model, offline", async () => {
    const npm = up();
    const modelId = `openai-compatible/local/${LOCAL_MODEL.modelName}`;
    expect(npm.text, "the ready banner names the local model").toContain(`Local model: ${modelId}`);
    expect(npm.parts().model, "llama-server runs under npm start").toBeGreaterThan(0);
    const started = await api<{ runId: string }>("POST", "/api/runs", { graph: "research-loop", task: "Name one planet of the solar system.", model: modelId });
    expect(started.status, "POST /api/runs on the local model").toBe(201);
    const runId = started.json?.runId ?? "";
    const ended = await until("the run on the local model ends", async () => {
      const summary = await run(runId);
      return summary && ["completed", "failed", "cancelled"].includes(summary.status) ? summary : undefined;
    }, { timeoutMs: 180_000, intervalMs: 500, abort: npm.gone });
    expect(ended.status, `the run ended ${ended.status}: ${ended.output ?? ""}`).toBe("completed");
    expect(ended.output?.trim().length, "the model wrote an answer").toBeGreaterThan(0);
    const spans = await api<unknown>("GET", `/api/runs/${runId}/spans`);
    expect(spans.status).toBe(200);
    expect(JSON.stringify(spans.json), "its model call went to the local model").toContain(modelId);
  });

  test("a SIGKILLed worker is restarted and the run it was executing completes", () => killDuringRun("worker"));

  test("a SIGKILLed Temporal dev server is restarted and the run in progress completes", () => killDuringRun("temporal"));

  test("a SIGKILLed web server is restarted and the session still works", async () => {
    const npm = up();
    process.kill(await pidOf(npm, "web"), "SIGKILL");
    await until("npm start says it restarts the web server", () => (/↻ web exited \(signal SIGKILL\); restarting in \d+ s/.test(npm.text) ? true : undefined), {
      timeoutMs: 10_000,
      abort: npm.gone,
    });
    await until("the runs API answers again with the same session", async () => ((await api("GET", "/api/runs?limit=1")).status === 200 ? true : undefined), {
      timeoutMs: 60_000,
      intervalMs: 500,
      abort: npm.gone,
    });
  });

  test("Ctrl-C stops every process, even while a restart is waiting", async () => {
    const npm = up();
    // Two quick worker crashes: the second restart waits at least 2 s. Interrupt during that wait.
    const restartLines = (): number => npm.text.match(/↻ worker exited/g)?.length ?? 0;
    for (const crash of [1, 2]) {
      const before = restartLines();
      process.kill(await pidOf(npm, "worker"), "SIGKILL");
      await until(`worker crash ${crash} is announced`, () => (restartLines() > before ? true : undefined), { timeoutMs: 10_000, intervalMs: 20, abort: npm.gone });
    }
    const lastRestart = [...npm.text.matchAll(/^↻ worker exited .*$/gm)].pop()?.[0];
    expect(lastRestart).toMatch(/↻ worker exited \(signal SIGKILL\); restarting in ([2-9]|\d\d+) s \(restart \d+\)/);
    const workerStarts = (): number => npm.text.match(/\[worker\] worker: polling/g)?.length ?? 0;
    const startsBefore = workerStarts();
    npm.interrupt();

    await until("npm start finishes after Ctrl-C", () => (npm.finished ? true : undefined), { timeoutMs: 45_000 }).catch((error: Error) => {
      throw new Error(`${error.message}\n${npm.tail()}`);
    });
    expect(npm.text).toContain("✓ stopped");
    expect(workerStarts(), "no worker may start after Ctrl-C").toBe(startsBefore);
    expect(npm.seen.size, "the stack's processes were observed").toBeGreaterThanOrEqual(5);
    await until("no process of the clone is left", () => (npm.leftovers().length === 0 ? true : undefined), { timeoutMs: 15_000 }).catch(() => {
      throw new Error(`processes left behind:\n${npm.leftovers().map((p) => `${p.pid} ${p.command}`).join("\n")}`);
    });
  });
});
