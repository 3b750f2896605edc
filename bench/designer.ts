// bench/designer: the designer's canvas with generated graphs of 100, 300 and
// 500 agent nodes in Chromium — time to interactive, frame rate while panning
// and while dragging a node, one live validation pass — and, in the same run,
// the same graphs on a bare React Flow page with default nodes (the floor).
// Targets: 500 nodes interactive ≤ 1.5 s and ≤ 1.5× the floor; ≥ 50 fps
// panning; one validation pass ≤ 16 ms.
//
//   npm run bench:designer            (needs Chromium: /usr/bin/chromium or CHROMIUM_PATH)
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { build, preview } from "vite";
import { chromium, type Page } from "@playwright/test";
import { freePort } from "../scripts/test-support/ports";

const ROOT = path.resolve(import.meta.dirname, "..");
const SIZES = (process.env.BENCH_SIZES ?? "100,300,500").split(",").map(Number);
const MODES = ["designer", "floor"] as const;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface Result {
  tti: number;
  panFps: number;
  dragFps: number;
  nodes: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Frames per second while `move` runs: rAF callbacks counted in the page, over the wall time of the gesture. */
async function framesDuring(page: Page, move: () => Promise<void>): Promise<number> {
  // Scripts as text: tsx would wrap a function literal with helpers that do not exist in the page.
  const started = await page.evaluate(`(() => {
    const state = { frames: 0, running: true };
    window.__frames = state;
    const tick = () => { state.frames++; if (state.running) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
    return performance.now();
  })()`);
  await move();
  return page.evaluate(`(() => {
    window.__frames.running = false;
    return (window.__frames.frames * 1000) / (performance.now() - ${Number(started)});
  })()`);
}

/** A one-second gesture: press at `from`, move in 60 steps, release. */
async function gesture(page: Page, from: { x: number; y: number }, dx: number, dy: number): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  const started = Date.now();
  for (let i = 1; i <= 60; i++) {
    await page.mouse.move(from.x + (dx * i) / 60, from.y + (dy * i) / 60);
    const due = started + (i * 1000) / 60;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  await page.mouse.up();
}

async function measure(page: Page, url: string): Promise<Result> {
  await page.goto(url);
  await page.waitForFunction("window.__bench !== undefined", undefined, { timeout: 60_000 });
  const { interactiveAt, nodes } = await page.evaluate<{ interactiveAt: number; nodes: number }>("({ interactiveAt: window.__bench.interactiveAt, nodes: window.__bench.nodes })");
  const pane = await page.locator(".react-flow__pane").boundingBox();
  if (!pane) throw new Error("no pane");
  // Pan from the top-left corner, where fitView's padding leaves the pane empty.
  const panFps = await framesDuring(page, () => gesture(page, { x: pane.x + 8, y: pane.y + 8 }, 300, 200));
  const target = await page.locator('.react-flow__node[data-id="agent:main"]').boundingBox();
  if (!target) throw new Error("node agent:main is not visible");
  const dragFps = await framesDuring(page, () => gesture(page, { x: target.x + target.width / 2, y: target.y + target.height / 2 }, 250, 150));
  return { tti: interactiveAt, panFps, dragFps, nodes };
}

async function main() {
  const outDir = mkdtempSync(path.join(os.tmpdir(), "zap-bench-designer-"));
  const root = path.join(ROOT, "bench/designer");
  const shared = { root, configFile: false as const, logLevel: "warn" as const, resolve: { alias: { "@": ROOT } }, css: { postcss: ROOT } };
  const builtAt = performance.now();
  // logLevel error: React Flow's "use client" directive warns in every non-Next bundle.
  await build({ ...shared, logLevel: "error", base: "./", build: { outDir, emptyOutDir: true, reportCompressedSize: false } });
  console.log(`built the bench pages in ${((performance.now() - builtAt) / 1000).toFixed(1)} s`);
  const port = await freePort();
  const server = await preview({ ...shared, build: { outDir }, preview: { port, host: "127.0.0.1", strictPort: true } });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  const results = new Map<string, Result[]>();
  try {
    for (const n of SIZES) {
      for (let round = 0; round < ROUNDS; round++) {
        for (const mode of MODES) {
          const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
          const result = await measure(page, `http://127.0.0.1:${port}/index.html?mode=${mode}&n=${n}`);
          if (mode === "designer" && round === 0) {
            const passes = await page.evaluate<number[]>("window.__bench.validate(30)");
            results.set(`validate ${n}`, passes.map((ms) => ({ tti: ms, panFps: 0, dragFps: 0, nodes: 0 })));
          }
          await page.close();
          results.set(`${mode} ${n}`, [...(results.get(`${mode} ${n}`) ?? []), result]);
        }
      }
    }
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
    rmSync(outDir, { recursive: true, force: true });
  }

  const pick = (key: string, field: keyof Result) => median((results.get(key) ?? []).map((r) => r[field]));
  console.log(`\nmedian of ${ROUNDS} rounds; Chromium headless, software rendering, viewport 1400×900`);
  console.log("agents  nodes   TTI designer / floor (ratio)    pan fps designer / floor   drag fps designer / floor   validation median / max");
  let ok = true;
  for (const n of SIZES) {
    const tti = pick(`designer ${n}`, "tti");
    const floorTti = pick(`floor ${n}`, "tti");
    const pan = pick(`designer ${n}`, "panFps");
    const passes = (results.get(`validate ${n}`) ?? []).map((r) => r.tti);
    const validation = median(passes);
    console.log(
      `${String(n).padStart(6)}  ${String(pick(`designer ${n}`, "nodes")).padStart(5)}   ${tti.toFixed(0).padStart(5)} / ${floorTti.toFixed(0).padStart(5)} ms (${(tti / floorTti).toFixed(2)}×)     ${pan.toFixed(0).padStart(3)} / ${pick(`floor ${n}`, "panFps").toFixed(0).padStart(3)}                  ${pick(`designer ${n}`, "dragFps").toFixed(0).padStart(3)} / ${pick(`floor ${n}`, "dragFps").toFixed(0).padStart(3)}                   ${validation.toFixed(2)} / ${Math.max(...passes).toFixed(2)} ms`,
    );
    if (n === 500) {
      const checks: [string, boolean][] = [
        [`500 agents interactive ≤ 1.5 s (${(tti / 1000).toFixed(2)} s)`, tti <= 1500],
        [`≤ 1.5× the floor (${(tti / floorTti).toFixed(2)}×)`, tti <= 1.5 * floorTti],
        [`≥ 50 fps panning (${pan.toFixed(0)})`, pan >= 50],
        [`one validation pass ≤ 16 ms (${validation.toFixed(2)} ms)`, validation <= 16],
      ];
      for (const [label, pass] of checks) {
        console.log(`${pass ? "✓" : "✗"} ${label}`);
        ok &&= pass;
      }
    }
  }
  process.exitCode = ok ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
