// bench/stream-latency: event written → visible on screen, in Chromium, for the
// live lists (issue 26 §2: p95 ≤ 300 ms).
//   Starts the product as `npm start` does (own data folder and ports), signs a
//   viewer in, and writes ledger rows the way the ledger writer does (one
//   transaction: run row + event, or approval record + the run's pending count).
//   Each sample arms a MutationObserver in the page, commits the write, and
//   takes the page's timestamp of the first DOM mutation that shows it; both
//   clocks are this machine's (performance.timeOrigin + now()). Measured:
//   - runs list: a run's status moving; a new run appearing;
//   - inbox: a new pending approval appearing;
//   - run page: a new span in the live trace (the run stream's path, as built);
//   each on the live path (feeds / stream connected) and, in the same run, with
//   the feeds refused so the pages fall back to their old polling: the baseline.
//
//   npm run bench:stream    (BENCH_SAMPLES=50)
//   Run it from a copy of the repository when others build in this one: it builds into .next.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { createDb, type Db } from "../lib/db/prisma";
import { freePort } from "../scripts/test-support/ports";
import { DEMO_USERS } from "../lib/auth/demo-users";

const ROOT = path.resolve(import.meta.dirname, "..");
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 50);
const BASELINE_SAMPLES = Math.max(10, Math.round(SAMPLES / 2));
const TARGET_P95_MS = 300;
const AUTH_SECRET = "bench-stream-auth-secret-0123456789-abcdefghij";
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ms = (n: number) => `${n.toFixed(0)} ms`;

/** What the page waits for: an element matching `selector` whose text holds `needle` (and, if given, whose `inner` element reads `text`). */
interface Watch {
  selector: string;
  needle: string;
  inner?: string;
  text?: string;
}

/**
 * Installs the page's watcher: `__arm(watch)` starts observing; `__seen` becomes the time of the first mutation that satisfies it.
 * A string, not a function: tsx would wrap a function's inner functions in a helper the page does not have.
 */
async function installWatcher(page: Page): Promise<void> {
  await page.addInitScript(`(() => {
    const satisfied = (w) =>
      [...document.querySelectorAll(w.selector)].some((el) => (el.textContent ?? "").includes(w.needle) && (!w.inner || el.querySelector(w.inner)?.textContent === w.text));
    let observer = null;
    window.__seen = null;
    window.__arm = (w) => {
      observer?.disconnect();
      window.__seen = null;
      if (satisfied(w)) return false;
      observer = new MutationObserver(() => {
        if (window.__seen === null && satisfied(w)) {
          window.__seen = performance.timeOrigin + performance.now();
          observer?.disconnect();
        }
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      return true;
    };
  })();`);
}

/** One sample: arm, write (commit), wait for the page's mutation; the latency from the commit to it. */
async function sample(page: Page, watch: Watch, write: () => Promise<void>): Promise<number> {
  const armed = await page.evaluate(`window.__arm(${JSON.stringify(watch)})`);
  if (!armed) throw new Error(`already on screen before the write: ${JSON.stringify(watch)}`);
  await write();
  const committed = now();
  // The time is the observer's; this only collects it (a string: the page's CSP refuses waitForFunction's eval).
  const seen = Number(
    await page.evaluate(`new Promise((resolve, reject) => {
      const started = Date.now();
      const tick = () => (window.__seen !== null ? resolve(window.__seen) : Date.now() - started > 30000 ? reject(new Error(${JSON.stringify(`not on screen within 30 s: ${JSON.stringify(watch)}`)})) : setTimeout(tick, 20));
      tick();
    })`),
  );
  return seen - committed;
}

function summary(label: string, values: number[]): { p95: number; line: string } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * q) - 1)] ?? Number.NaN;
  return { p95: at(0.95), line: `${label.padEnd(40)} ${String(sorted.length).padStart(4)}   ${ms(at(0.5)).padStart(8)}   ${ms(at(0.95)).padStart(8)}   ${ms(sorted.at(-1) ?? Number.NaN).padStart(8)}` };
}

/** A pause between samples that never lines up with a poll interval. */
const jitter = () => sleep(60 + Math.floor(Math.random() * 340));

async function signIn(page: Page, base: string): Promise<void> {
  const viewer = DEMO_USERS.find((u) => u.role === "viewer");
  if (!viewer) throw new Error("no demo viewer");
  await page.goto(`${base}/sign-in`);
  await page.getByLabel("Email").fill(viewer.email);
  await page.getByLabel("Password").fill(viewer.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByTestId("user-role").waitFor();
}

/** A run row as the ledger writer leaves it when a run starts (no event yet). */
async function createRun(db: Db, runId: string, task: string, extra: { pendingApprovals?: number; status?: string } = {}): Promise<void> {
  await db.run.create({ data: { id: runId, rootRunId: runId, agentName: "bench", task, status: extra.status ?? "thinking", pendingApprovals: extra.pendingApprovals ?? 0, startedAt: new Date() } });
}

/** A tool call's start event, as the ledger holds it. */
function toolEvent(seq: number, name: string, at: Date): { type: string; data: string } {
  return { type: "tool_call_started", data: JSON.stringify({ type: "tool_call_started", iteration: 1, callId: `c${seq}`, tool: name, arguments: "{}", seq, at: at.toISOString() }) };
}

type Mode = "live" | "polling";

/** Runs list: status moves of runs on the page, then new runs appearing. */
async function runsList(page: Page, db: Db, base: string, mode: Mode, count: number): Promise<{ status: number[]; appear: number[] }> {
  const tag = `${mode}-${Date.now()}`;
  const pool = Array.from({ length: 5 }, (_, i) => ({ runId: `bench-list-${tag}-${i}`, task: `bench list ${tag} run ${i}`, seq: 0, status: "thinking" }));
  for (const run of pool) await createRun(db, run.runId, run.task);
  await page.goto(`${base}/runs`);
  await page.getByTestId("runs-list").and(page.locator(`[data-live="${mode === "live" ? "stream" : "polling"}"]`)).waitFor();
  for (const run of pool) await page.getByTestId("run-row").filter({ hasText: run.task }).waitFor();
  const status: number[] = [];
  for (let i = 0; i < count; i++) {
    const run = pool[i % pool.length]!;
    const next = run.status === "thinking" ? "awaiting_tool" : "thinking";
    run.seq++;
    const at = new Date();
    const event = toolEvent(run.seq, "search_notes", at);
    status.push(
      await sample(page, { selector: '[data-testid="run-row"]', needle: run.task, inner: '[data-testid="run-status"]', text: next.replace("_", " ") }, async () => {
        await db.$transaction([
          db.runEvent.create({ data: { runId: run.runId, seq: run.seq, type: event.type, at, data: event.data, bytes: Buffer.byteLength(event.data) } }),
          db.run.update({ where: { id: run.runId }, data: { status: next, lastEventSeq: run.seq } }),
        ]);
      }),
    );
    run.status = next;
    await jitter();
  }
  const appear: number[] = [];
  for (let i = 0; i < count; i++) {
    const task = `bench new ${tag} ${i}`;
    appear.push(await sample(page, { selector: '[data-testid="run-row"]', needle: task }, () => createRun(db, `bench-new-${tag}-${i}`, task, { status: "completed" })));
    await jitter();
  }
  for (const run of pool) await db.run.update({ where: { id: run.runId }, data: { status: "completed", endedAt: new Date() } });
  return { status, appear };
}

/** Inbox: a run asks for an approval (record + pending count, one transaction); the card appears. The previous one is decided first. */
async function inbox(page: Page, db: Db, base: string, mode: Mode, count: number): Promise<number[]> {
  const tag = `${mode}-${Date.now()}`;
  await page.goto(`${base}/inbox`);
  await page.getByTestId("inbox").and(page.locator(`[data-live="${mode === "live" ? "stream" : "polling"}"]`)).waitFor();
  const latencies: number[] = [];
  let previous: { runId: string; approvalId: string; amount: number } | null = null;
  for (let i = 0; i < count; i++) {
    if (previous) {
      const { runId, approvalId } = previous;
      await db.$transaction([
        db.approvalRecord.update({ where: { id: approvalId }, data: { status: "rejected", decidedAt: new Date(), decidedByEmail: "bench@zap.local", reason: "bench" } }),
        db.run.update({ where: { id: runId }, data: { pendingApprovals: 0, status: "completed", endedAt: new Date() } }),
      ]);
      await page.getByTestId("approval-card").filter({ hasText: `"amount": ${previous.amount}` }).waitFor({ state: "detached", timeout: 30_000 });
    }
    const runId = `bench-ask-${tag}-${i}`;
    const approvalId = `ask-${tag}-${i}`;
    const amount = (mode === "live" ? 1000 : 5000) + i;
    latencies.push(
      await sample(page, { selector: '[data-testid="approval-card"]', needle: `"amount": ${amount}` }, async () => {
        const at = new Date();
        await db.$transaction([
          db.approvalRecord.create({
            data: { id: approvalId, runId, rootRunId: runId, agentName: "bench", toolName: "ledger_transfer", toolCallId: `call-${i}`, arguments: JSON.stringify({ from_account: "savings", to_account: "operating", amount }), requestedAt: at, expiresAt: new Date(at.getTime() + 3_600_000) },
          }),
          db.run.create({ data: { id: runId, rootRunId: runId, agentName: "bench", task: `bench ask ${i}`, status: "awaiting_approval", pendingApprovals: 1, startedAt: at } }),
        ]);
      }),
    );
    previous = { runId, approvalId, amount };
    await jitter();
  }
  if (previous) await db.run.update({ where: { id: previous.runId }, data: { pendingApprovals: 0, status: "completed", endedAt: new Date() } });
  return latencies;
}

/** Run page: a live run gets one span and its event at a time; the span's row appears in the trace. */
async function runPage(page: Page, db: Db, base: string, mode: Mode, count: number): Promise<number[]> {
  const latencies: number[] = [];
  // The trace renders only the rows in its view: a fresh run every 20 samples keeps each new row in it.
  for (let done = 0; done < count; done += 20) latencies.push(...(await runPageChunk(page, db, base, `${mode}-${done}`, Math.min(20, count - done))));
  return latencies;
}

async function runPageChunk(page: Page, db: Db, base: string, tag: string, count: number): Promise<number[]> {
  const runId = `bench-page-${tag}-${Date.now()}`;
  await createRun(db, runId, "bench run page");
  await db.runSpan.create({ data: { runId, spanId: "s1", parentId: null, kind: "run", name: "bench", status: "running", startedAt: new Date(), data: "{}" } });
  await page.goto(`${base}/runs/${runId}`);
  await page.getByTestId("span-row").first().waitFor();
  const latencies: number[] = [];
  for (let seq = 1; seq <= count; seq++) {
    const name = `bench_tool_${seq}`;
    const at = new Date();
    const event = toolEvent(seq, name, at);
    latencies.push(
      await sample(page, { selector: '[data-testid="span-row"]', needle: name }, async () => {
        await db.$transaction([
          db.runSpan.create({ data: { runId, spanId: `s${seq + 1}`, parentId: "s1", kind: "tool", name, status: "running", startedAt: at, data: JSON.stringify({ attributes: { callId: `c${seq}` } }) } }),
          db.runEvent.create({ data: { runId, seq, type: event.type, at, data: event.data, bytes: Buffer.byteLength(event.data) } }),
          db.run.update({ where: { id: runId }, data: { lastEventSeq: seq } }),
        ]);
      }),
    );
    await jitter();
  }
  await db.run.update({ where: { id: runId }, data: { status: "completed", endedAt: new Date() } });
  return latencies;
}

async function waitForHealth(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fetch(url).then((r) => r.ok, () => false)) return;
    await sleep(500);
  }
  throw new Error(`${url} did not become healthy`);
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "zap-bench-stream-"));
  const [port, temporalPort, uiPort] = [await freePort(), await freePort(), await freePort()];
  const base = `http://127.0.0.1:${port}`;
  const databaseUrl = `file:${path.join(dataDir, "zap.db")}`;
  // The browser first: one that fails to start (Chromium missing) must not leave a stack behind whose supervisor
  // keeps restarting its worker and Temporal server after the bench has exited.
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  const stack = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, AUTH_SECRET, PORT: String(port), HOST: "127.0.0.1", ZAP_DATA_DIR: dataDir, DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`, TEMPORAL_UI_PORT: String(uiPort), TEMPORAL_TASK_QUEUE: "zap-bench-stream", NEXT_TELEMETRY_DISABLED: "1" },
  });
  const db = createDb(databaseUrl);
  try {
    // A stack that fails to start (a broken build) ends the bench with its error, not with nothing measured.
    const exited = new Promise<never>((_, reject) => stack.once("exit", (code) => reject(new Error(`the stack exited (code ${code}) before it was healthy`))));
    exited.catch(() => undefined);
    await Promise.race([waitForHealth(`${base}/api/health`, 600_000), exited]);
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await installWatcher(page);
    await signIn(page, base);
    const rows: { label: string; values: number[]; gated: boolean }[] = [];
    const record = (label: string, values: number[], gated: boolean) => {
      rows.push({ label, values, gated });
    };
    // A page that fails is reported and the others still measured.
    const phase = async (label: string, run: () => Promise<void>) => {
      try {
        await run();
      } catch (error) {
        console.log(`${label}: FAILED — ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
      }
    };

    await phase("runs list (live)", async () => {
      const live = await runsList(page, db, base, "live", SAMPLES);
      record("runs list · status moves · live", live.status, true);
      record("runs list · new run appears · live", live.appear, true);
    });
    await phase("inbox (live)", async () => record("inbox · approval appears · live", await inbox(page, db, base, "live", SAMPLES), true));
    await phase("run page (as built)", async () => record("run page · span appears · as built", await runPage(page, db, base, "live", SAMPLES), true));

    // The baseline, same stack, same writes: the feeds and the run stream refused, so every page polls as it did before.
    await page.route(/\/api\/(runs\/feed|approvals\/feed|runs\/[^/]+\/stream)(\?|$)/, (route) => route.abort());
    await phase("runs list (polling)", async () => {
      const polled = await runsList(page, db, base, "polling", BASELINE_SAMPLES);
      record("runs list · status moves · polling", polled.status, false);
      record("runs list · new run appears · polling", polled.appear, false);
    });
    await phase("inbox (polling)", async () => record("inbox · approval appears · polling", await inbox(page, db, base, "polling", BASELINE_SAMPLES), false));
    await phase("run page (stream refused)", async () => record("run page · span appears · stream refused", await runPage(page, db, base, "polling", BASELINE_SAMPLES), false));

    const [l1, l5, l15] = os.loadavg();
    console.log(`\nevent written (commit) → visible (first DOM mutation), Chromium, ${os.cpus().length} cores, load ${l1?.toFixed(2)} / ${l5?.toFixed(2)} / ${l15?.toFixed(2)}`);
    console.log(`${"".padEnd(40)} ${"n".padStart(4)}   ${"p50".padStart(8)}   ${"p95".padStart(8)}   ${"max".padStart(8)}`);
    const p95s = new Map<string, number>();
    for (const row of rows) {
      const { p95, line } = summary(row.label, row.values);
      p95s.set(row.label, p95);
      console.log(`${line}   ${row.gated ? `target ≤ ${TARGET_P95_MS} ms: ${p95 <= TARGET_P95_MS ? "ok" : "MISSED"}` : ""}`);
    }
    console.log("\np95, polling ÷ live (the gain):");
    for (const [liveLabel, polledLabel] of [
      ["runs list · status moves · live", "runs list · status moves · polling"],
      ["runs list · new run appears · live", "runs list · new run appears · polling"],
      ["inbox · approval appears · live", "inbox · approval appears · polling"],
      ["run page · span appears · as built", "run page · span appears · stream refused"],
    ] as const) {
      console.log(`  ${liveLabel.replace(" · live", "").replace(" · as built", "").padEnd(36)} ${((p95s.get(polledLabel) ?? Number.NaN) / (p95s.get(liveLabel) ?? Number.NaN)).toFixed(1)}×`);
    }
  } finally {
    await browser.close();
    await db.$disconnect();
    if (stack.exitCode === null && stack.signalCode === null) {
      stack.kill("SIGINT");
      await new Promise((resolve) => stack.once("exit", resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
