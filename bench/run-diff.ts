// bench/run-diff: comparing two runs (the compare page and its alignment).
//   1. In process: the alignment (lib/runs/diff/align.ts, Myers via fast-myers-diff plus the
//      content pass) on 5,000 vs 5,000 steps — identical runs, scattered differences, a
//      fork-like pair (same steps, every content after the middle changed) and a worst case
//      (every key after the middle different) — against a baseline in the same run: the
//      textbook O(N·M) LCS table over the same keys (length only, two rows). Also the cost of
//      building 5,000 steps from ledger rows (build-steps.ts).
//   2. In Chromium (BENCH_PAGE=0 skips it): starts the product as `npm start` does (own data
//      folder and ports), writes, each round, two new runs of one graph of BENCH_SPANS spans each
//      (default 5,000; iteration → model call → tool call, with their events and messages) that
//      differ in one tool result in the middle, the steps before it marked replayed in B (a fork),
//      and measures navigation → first divergence on screen on /runs/compare (the row inside the
//      list's visible box with both steps' texts shown, not merely in the DOM; polled from the
//      response on, not from the load event, since 2026-11-26): first open (nothing
//      of the pair cached, the figure held to the target) and opened again; where the time went
//      by the page's clock; the scroll frame rate, the compare API alone and a page of steps read
//      lazily (/api/runs/compare/steps); the baseline is the run page's trace of run A opened the
//      same way in the same session (its own target: 5,000 spans ≤ 1 s).
//   Target: 5,000 spans each ≤ 1 s to the first divergence on screen.
//
//   npm run bench:run-diff    (BENCH_SPANS=5000 BENCH_ROUNDS=7 BENCH_PAGE=1 BENCH_PAGE_ROUNDS=3)
//   Run it from a copy of the repository when others build in this one: it builds into .next.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { createDb, type Db } from "../lib/db/prisma";
import { freePort } from "../scripts/test-support/ports";
import { EMPTY_PRICE_BOOK } from "../lib/pricing/price-book";
import { DEMO_USERS } from "../lib/auth/demo-users";
import { alignSteps } from "../lib/runs/diff/align";
import { treeSteps, type LedgerRun } from "../lib/runs/diff/build-steps";
import { stepKey, type RunStep } from "../lib/runs/diff/steps";
import type { RunEvent } from "../lib/contract/types";

const ROOT = path.resolve(import.meta.dirname, "..");
const SPANS = Number(process.env.BENCH_SPANS ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const PAGE = process.env.BENCH_PAGE !== "0";
const PAGE_ROUNDS = Number(process.env.BENCH_PAGE_ROUNDS ?? 3);
const STEPS = 5000;
const fmt = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 0)} ms`;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" / ");

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function timed(rounds: number, work: () => void): number {
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    work();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

// ---------- 1. the alignment ----------

function syntheticStep(i: number, tool: string, result: string): RunStep {
  const model = i % 2 === 0;
  return {
    kind: model ? "model_call" : "tool_call",
    path: i % 50 < 10 ? ".helper#1" : "",
    agent: "bench",
    name: model ? "" : tool,
    fields: model ? { model: "demo/bench", text: `thinking about ${i}`, toolCalls: `${tool}({"q":${i}})` } : { arguments: `{"q":${i}}`, outcome: "ok", result },
    group: model ? null : `r#${i}`,
    runId: "r",
    spanId: `s${i}`,
    seq: i,
    at: new Date(1_700_000_000_000 + i * 10).toISOString(),
    tokens: model ? { inputTokens: 100 + i, outputTokens: 20 } : null,
    cost: model ? 0 : null,
    latencyMs: 20,
    replayed: false,
  };
}

function steps(count: number, vary: (i: number) => { tool?: string; result?: string } = () => ({})): RunStep[] {
  return Array.from({ length: count }, (_, i) => {
    const v = vary(i);
    return syntheticStep(i, v.tool ?? `tool_${i % 13}`, v.result ?? `result ${i}`);
  });
}

/** The baseline: the O(N·M) LCS length over the step keys, two rows of the table. */
function textbookLcs(a: readonly RunStep[], b: readonly RunStep[]): number {
  const ka = a.map(stepKey);
  const kb = b.map(stepKey);
  let prev = new Int32Array(kb.length + 1);
  let row = new Int32Array(kb.length + 1);
  for (let i = 1; i <= ka.length; i++) {
    for (let j = 1; j <= kb.length; j++) row[j] = ka[i - 1] === kb[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, row[j - 1]!);
    [prev, row] = [row, prev];
  }
  return prev[kb.length]!;
}

function ledgerRun(count: number): LedgerRun {
  const events: RunEvent[] = [];
  const at = (i: number) => new Date(1_700_000_000_000 + i * 10).toISOString();
  let seq = 0;
  const assistantMessages: LedgerRun["assistantMessages"] = [];
  const spans: LedgerRun["spans"] = [];
  for (let i = 1; events.length < count; i++) {
    events.push({ seq: ++seq, at: at(seq), type: "inference_completed", iteration: i, model: "demo/bench", usage: { inputTokens: 100, outputTokens: 20 }, latencyMs: 20, toolCalls: 1, attempts: 1 });
    events.push({ seq: ++seq, at: at(seq), type: "tool_call_started", iteration: i, callId: `c${i}`, tool: "search_notes", arguments: `{"query":"q ${i}"}` });
    events.push({ seq: ++seq, at: at(seq), type: "tool_call_completed", iteration: i, callId: `c${i}`, tool: "search_notes", outcome: "ok", durationMs: 5, attempts: 1, result: `notes ${i}` });
    assistantMessages.push({ role: "assistant", content: null, tool_calls: [{ id: `c${i}`, type: "function", function: { name: "search_notes", arguments: `{"query":"q ${i}"}` } }] });
    spans.push({ id: `i${i}`, kind: "inference", status: "ok", callId: null, replayed: false }, { id: `t${i}`, kind: "tool", status: "ok", callId: `c${i}`, replayed: false });
  }
  return { runId: "r", parentRunId: null, agentName: "bench", startedAt: at(0), events, spans, assistantMessages };
}

function alignmentFigures(): void {
  const a = steps(STEPS);
  const cases: [string, RunStep[]][] = [
    ["identical", steps(STEPS)],
    ["scattered (10 inserted, 5 removed, 13 changed)", a.flatMap((s, i) => [...(i % 500 === 250 ? [syntheticStep(i, "extra", "x")] : []), ...(i % 1000 === 999 ? [] : [i % 400 === 10 ? { ...s, fields: { ...s.fields, result: "other" } } : s])])],
    ["fork-like (every content after the middle changed)", steps(STEPS, (i) => (i >= STEPS / 2 ? { result: `live ${i}` } : {}))],
    ["worst (every key after the middle different)", steps(STEPS, (i) => (i >= STEPS / 2 ? { tool: `other_${i}` } : {}))],
  ];
  console.log(`\n1) alignment, ${STEPS.toLocaleString("en-US")} vs ${STEPS.toLocaleString("en-US")} steps, median of ${ROUNDS} rounds (load ${load()})`);
  console.log("case                                                  alignSteps   textbook LCS (baseline)   rows     first divergence");
  for (const [name, b] of cases) {
    let rows = 0;
    let first: number | null = null;
    const ours = timed(ROUNDS, () => {
      const result = alignSteps(a, b);
      rows = result.rows.length;
      first = result.firstDivergence;
    });
    const baseline = timed(Math.min(ROUNDS, 3), () => void textbookLcs(a, b));
    console.log(`${name.padEnd(53)} ${fmt(ours).padEnd(12)} ${fmt(baseline).padEnd(25)} ${String(rows).padEnd(8)} ${first === null ? "none" : `row ${first}`}`);
  }
  const run = ledgerRun(STEPS);
  const built = timed(ROUNDS, () => void treeSteps([run], "r", EMPTY_PRICE_BOOK));
  console.log(`building ${treeSteps([run], "r", EMPTY_PRICE_BOOK).length.toLocaleString("en-US")} steps from ${run.events.length.toLocaleString("en-US")} ledger events: ${fmt(built)}`);
}

// ---------- 2. the page ----------

/** Writes a finished run of `count` spans (run → iterations → model call + tool call) with its events and messages; `divergeAt` changes that iteration's tool result, `replayedBefore` marks the spans before it replayed. */
async function writeRun(db: Db, runId: string, count: number, options: { divergeAt?: number; replayedBefore?: number } = {}): Promise<void> {
  const start = Date.now() - count * 20;
  await db.run.create({ data: { id: runId, rootRunId: runId, parentRunId: null, agentName: "bench", graphName: "bench-graph", task: `compare ${count} spans`, status: "completed", startedAt: new Date(start), endedAt: new Date(start + count * 20), output: "done" } });
  const spans: { runId: string; spanId: string; parentId: string | null; kind: string; name: string; status: string; startedAt: Date; endedAt: Date; data: string }[] = [
    { runId, spanId: "s1", parentId: null, kind: "run", name: "bench", status: "ok", startedAt: new Date(start), endedAt: new Date(start + count * 20), data: "{}" },
  ];
  const events: { runId: string; seq: number; type: string; at: Date; data: string; bytes: number }[] = [];
  const messages: { runId: string; index: number; role: string; data: string }[] = [];
  const event = (at: number, body: Record<string, unknown>) => {
    const data = JSON.stringify({ ...body, seq: events.length + 1, at: new Date(at).toISOString() });
    events.push({ runId, seq: events.length + 1, type: String(body.type), at: new Date(at), data, bytes: data.length });
  };
  event(start, { type: "run_started", agentName: "bench", task: `compare ${count} spans`, depth: 0 });
  let n = 1;
  let i = 0;
  while (spans.length < count) {
    i++;
    const t = start + i * 60;
    const replayed = options.replayedBefore !== undefined && i < options.replayedBefore;
    const iteration = `s${++n}`;
    spans.push({ runId, spanId: iteration, parentId: "s1", kind: "iteration", name: `iteration ${i}`, status: "ok", startedAt: new Date(t), endedAt: new Date(t + 55), data: JSON.stringify({ attributes: { iteration: i } }) });
    spans.push({ runId, spanId: `s${++n}`, parentId: iteration, kind: "inference", name: "demo/bench", status: "ok", startedAt: new Date(t), endedAt: new Date(t + 20), data: JSON.stringify({ tokens: { inputTokens: replayed ? 0 : 100 + i, outputTokens: replayed ? 0 : 20 }, attempts: 1, ...(replayed ? { attributes: { replayed: true } } : {}) }) });
    spans.push({ runId, spanId: `s${++n}`, parentId: iteration, kind: "tool", name: "search_notes", status: "ok", startedAt: new Date(t + 21), endedAt: new Date(t + 50), data: JSON.stringify({ attempts: 1, attributes: { callId: `call_${i}`, outcome: "ok", ...(replayed ? { replayed: true } : {}) } }) });
    const args = JSON.stringify({ query: `notes about topic ${i}` });
    event(t + 20, { type: "inference_completed", iteration: i, model: "demo/bench", usage: { inputTokens: replayed ? 0 : 100 + i, outputTokens: replayed ? 0 : 20 }, latencyMs: 20, toolCalls: 1, attempts: 1 });
    event(t + 21, { type: "tool_call_started", iteration: i, callId: `call_${i}`, tool: "search_notes", arguments: args });
    event(t + 50, { type: "tool_call_completed", iteration: i, callId: `call_${i}`, tool: "search_notes", outcome: "ok", durationMs: 29, attempts: 1, result: i === options.divergeAt ? `{"notes":["an edited note for ${i}"]}` : `{"notes":["note ${i} on durable execution and retries"]}` });
    messages.push({ runId, index: messages.length, role: "assistant", data: JSON.stringify({ role: "assistant", content: `Looking up topic ${i}.`, tool_calls: [{ id: `call_${i}`, type: "function", function: { name: "search_notes", arguments: args } }] }) });
  }
  event(start + count * 20, { type: "run_completed", output: "done" });
  for (let k = 0; k < spans.length; k += 2000) await db.runSpan.createMany({ data: spans.slice(k, k + 2000) });
  for (let k = 0; k < events.length; k += 2000) await db.runEvent.createMany({ data: events.slice(k, k + 2000) });
  for (let k = 0; k < messages.length; k += 2000) await db.runMessage.createMany({ data: messages.slice(k, k + 2000) });
  await db.run.update({ where: { id: runId }, data: { lastEventSeq: events.length, messageCount: messages.length } });
}

async function waitForHealth(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fetch(url).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not become healthy`);
}

async function signIn(page: Page, base: string): Promise<void> {
  const viewer = DEMO_USERS.find((u) => u.role === "viewer");
  if (!viewer) throw new Error("no demo viewer");
  await page.goto(`${base}/sign-in`);
  await page.getByLabel("Email").fill(viewer.email);
  await page.getByLabel("Password").fill(viewer.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByTestId("user-role").waitFor();
}

/** Whether the first divergence is on screen: its row inside the list's visible box, both of its steps shown (not loading placeholders). */
const DIVERGENCE_SHOWN = `(() => {
  const list = document.querySelector('[data-testid="diff-rows"]');
  const row = document.querySelector('[data-testid="diff-first-divergence"]');
  if (!list || !row || !row.querySelector('[data-testid="diff-step-a"]') || !row.querySelector('[data-testid="diff-step-b"]')) return false;
  const box = list.getBoundingClientRect();
  const r = row.getBoundingClientRect();
  return r.height > 0 && r.top >= box.top - 1 && r.top < box.bottom;
})()`;

/**
 * Run in every document from its start: notes (window.__diffOnScreen, by the page's clock) the first
 * frame with the divergence on screen (the figures below read it).
 */
const RECORD_ON_SCREEN = `(() => {
  const check = () => {
    if (${DIVERGENCE_SHOWN}) window.__diffOnScreen = performance.now();
    else requestAnimationFrame(check);
  };
  if (location.pathname === "/runs/compare") requestAnimationFrame(check);
})()`;

/** Resolves once the first divergence is on screen, polled every animation frame. */
function firstDivergenceOnScreen(page: Page): Promise<unknown> {
  return page.waitForFunction(DIVERGENCE_SHOWN, undefined, { timeout: 60_000, polling: "raf" });
}

/** Where a navigation's time went (ms from its start, by the page's own clock), read once the divergence is on screen. */
interface Breakdown {
  ttfb: number;
  htmlEnd: number;
  firstPaint: number;
  htmlKiB: number;
  domReady: number;
  onScreen: number;
  scriptKiB: number;
}

async function breakdown(page: Page): Promise<Breakdown> {
  await page.waitForLoadState("load");
  return page.evaluate(`(() => {
    const nav = performance.getEntriesByType("navigation")[0];
    const scripts = performance.getEntriesByType("resource").filter((r) => r.initiatorType === "script");
    return {
      ttfb: nav.responseStart,
      htmlEnd: nav.responseEnd,
      firstPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
      htmlKiB: nav.decodedBodySize / 1024,
      domReady: nav.domContentLoadedEventEnd,
      onScreen: window.__diffOnScreen ?? NaN,
      scriptKiB: scripts.reduce((n, r) => n + r.decodedBodySize, 0) / 1024,
    };
  })()`);
}

/** Frames per second while the diff scrolls 150 px per frame for two seconds. */
function scrollFps(page: Page): Promise<number> {
  return page.evaluate(`new Promise((resolve) => {
    const list = document.querySelector('[data-testid="diff-rows"]');
    let frames = 0;
    const started = performance.now();
    const tick = () => {
      frames++;
      list.scrollTop += 150;
      if (performance.now() - started < 2000) requestAnimationFrame(tick);
      else resolve((frames * 1000) / (performance.now() - started));
    };
    requestAnimationFrame(tick);
  })`);
}

async function pageFigures(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "zap-bench-diff-"));
  const [port, temporalPort, uiPort] = [await freePort(), await freePort(), await freePort()];
  const base = `http://127.0.0.1:${port}`;
  const databaseUrl = `file:${path.join(dataDir, "zap.db")}`;
  const stack = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", ZAP_DATA_DIR: dataDir, DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`, TEMPORAL_UI_PORT: String(uiPort), TEMPORAL_TASK_QUEUE: "zap-bench-diff", NEXT_TELEMETRY_DISABLED: "1" },
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  const db = createDb(databaseUrl);
  try {
    await waitForHealth(`${base}/api/health`, 600_000);
    // bypassCSP: the app's CSP forbids eval, which Playwright's polling of waitForFunction needs.
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, bypassCSP: true });
    await signIn(page, base);
    await page.addInitScript(RECORD_ON_SCREEN);
    const middle = Math.floor(SPANS / 6);
    /** Two new runs (nothing of them cached): A, and B differing in one tool result, replayed before it. */
    const pair = async (round: number): Promise<[string, string]> => {
      const [a, b] = [`bench-diff-a-${round}-${Date.now()}`, `bench-diff-b-${round}-${Date.now()}`];
      await writeRun(db, a, SPANS);
      await writeRun(db, b, SPANS, { divergeAt: middle, replayedBefore: middle });
      return [a, b];
    };
    const open = async (a: string, b: string): Promise<[number, Breakdown]> => {
      const started = performance.now();
      // Waited for from the response on (waitUntil "commit"), not from the load event: the rows
      // server-rendered at the divergence are on screen before the scripts have loaded.
      await page.goto(`${base}/runs/compare?a=${a}&b=${b}`, { waitUntil: "commit" });
      await firstDivergenceOnScreen(page);
      return [performance.now() - started, await breakdown(page)];
    };
    console.log(`\n2) the compare page, two runs of ${SPANS.toLocaleString("en-US")} spans each differing in one tool result (iteration ${middle}), a new pair each round; ${os.availableParallelism()} cores, load ${load()}`);
    console.log("round   compare page → divergence on screen: first open   opened again   run A's trace (baseline)   compare API, again              100 steps read lazily ×2");
    const ours: number[] = [];
    const again: number[] = [];
    const theirs: number[] = [];
    const parts: Breakdown[] = [];
    const partsAgain: Breakdown[] = [];
    let a = "";
    let b = "";
    for (let round = 1; round <= PAGE_ROUNDS; round++) {
      [a, b] = await pair(round);
      // The first open is the figure held to the target: the server has nothing of these runs cached.
      const [first, firstParts] = await open(a, b);
      ours.push(first);
      parts.push(firstParts);
      const [second, secondParts] = await open(a, b);
      again.push(second);
      partsAgain.push(secondParts);
      const traced = performance.now();
      await page.goto(`${base}/runs/${a}`, { waitUntil: "commit" });
      await page.getByTestId("span-row").first().waitFor({ timeout: 60_000 });
      theirs.push(performance.now() - traced);
      const api = performance.now();
      const response = await page.request.get(`${base}/api/runs/compare?a=${a}&b=${b}`);
      const body = await response.body();
      const apiMs = performance.now() - api;
      // Twice: the first read builds run A's steps, the second finds them built.
      const lazyMs: number[] = [];
      let stepsKiB = 0;
      for (const from of [3000, 3100]) {
        const lazy = performance.now();
        const stepsResponse = await page.request.get(`${base}/api/runs/compare/steps?run=${a}&from=${from}&to=${from + 100}`);
        stepsKiB = (await stepsResponse.body()).length / 1024;
        lazyMs.push(performance.now() - lazy);
      }
      const apiText = `${fmt(apiMs)} (${(body.length / 1024).toFixed(0)} KiB, status ${response.status()})`;
      console.log(`${String(round).padEnd(7)} ${fmt(first).padEnd(43)} ${fmt(second).padEnd(14)} ${fmt(theirs.at(-1)!).padEnd(26)} ${apiText.padEnd(31)} ${lazyMs.map(fmt).join(", ")} (${stepsKiB.toFixed(0)} KiB)`);
    }
    await open(a, b);
    const fps = await scrollFps(page);
    // By the page's clock: server answer (first byte), HTML received, first paint, DOM ready (scripts
    // run, React hydrating), divergence on screen; the scripts' decoded size: the JS the route loads.
    const line = (label: string, of: Breakdown[]) => {
      const mid = (pick: (b: Breakdown) => number) => fmt(median(of.map(pick)));
      console.log(
        `${label} (medians, ms from navigation start): first byte ${mid((p) => p.ttfb)}, HTML end ${mid((p) => p.htmlEnd)} (${median(of.map((p) => p.htmlKiB)).toFixed(0)} KiB), first paint ${mid((p) => p.firstPaint)}, DOM ready ${mid((p) => p.domReady)}, divergence on screen ${mid((p) => p.onScreen)}; scripts ${median(of.map((p) => p.scriptKiB)).toFixed(0)} KiB`,
      );
    };
    line("breakdown, first open", parts);
    line("breakdown, opened again", partsAgain);
    const result = median(ours);
    console.log(
      `median: compare, first open ${fmt(result)} (target ≤ 1000 ms ${result <= 1000 ? "ok" : "MISSED"}), opened again ${fmt(median(again))}, trace baseline ${fmt(median(theirs))}; diff scroll ${fps.toFixed(0)} fps; load after ${load()}`,
    );
  } finally {
    await browser.close();
    await db.$disconnect();
    stack.kill("SIGTERM");
    await new Promise((r) => stack.once("exit", r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`bench/run-diff: ${os.availableParallelism()} cores, load ${load()}`);
alignmentFigures();
if (PAGE) await pageFigures();
