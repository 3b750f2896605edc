// bench/plan-dag-view: the run page's live DAG of a plan-and-execute run.
//   In node: building the view model from the run's plan events
//   (lib/runs/plan-view.ts, redone on every poll that brings plan events),
//   costing every node, and laying the plan out with dagre left to right
//   (components/plan/plan-layout.ts, once per plan). In Chromium (the page in
//   bench/plan-dag/, built with Vite): the plan canvas caught mid-run, from
//   navigation to cards painted after fitView, and one live update (every
//   remaining node completes in one batch) until the next paint.
//   A 500-node plan is timed against a 50-node baseline of the same shape in
//   the same run, for three shapes: layered (each node needs two of the layer
//   before), fan-in (every node feeds one last node) and a chain.
//   Target (issue 17): the live DAG of a 500-node plan interactive ≤ 1.5 s. Not
//   measured: the run page's server read of the plan events and the network,
//   and the rest of the run page (header, trace) loading beside the DAG.
//
//   npx tsx bench/plan-dag-view.ts    (BENCH_REPEAT=15 node repeats, BENCH_ROUNDS=3 browser rounds; Chromium: /usr/bin/chromium or CHROMIUM_PATH)
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { build, preview } from "vite";
import { chromium } from "@playwright/test";
import { freePort } from "../scripts/test-support/ports";
import { buildPlanView, nodeCost } from "../lib/runs/plan-view";
import { layoutPlan, NETWORK_SIMPLEX_MAX_NODES } from "../components/plan/plan-layout";
import { eventsOf, MODELS, planOf, PRICES, SHAPES, type Shape } from "./plan-dag/plans";

const ROOT = path.resolve(import.meta.dirname, "..");
const REPEAT = Number(process.env.BENCH_REPEAT ?? 15);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET_MS = 1500;
const SIZES = [50, 500] as const;

function time(fn: () => void): number[] {
  fn(); // warm-up: the first call pays for JIT compilation
  const samples: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return samples.sort((a, b) => a - b);
}

const median = (s: number[]) => s[Math.floor(s.length / 2)] ?? NaN;
const p95 = (s: number[]) => s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)] ?? NaN;
const fmt = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;

function measure(shape: Shape, size: number) {
  const plan = planOf(shape, size);
  const events = eventsOf(plan);
  const edges = plan.nodes.flatMap((n) => n.dependsOn.map((d) => ({ source: d, target: n.id })));
  const view = time(() => {
    const built = buildPlanView(events);
    for (const n of built?.nodes ?? []) nodeCost(n, MODELS, PRICES);
  });
  const layout = time(() => layoutPlan(plan.nodes.map((n) => n.id), edges));
  return { shape, size, edges: edges.length, events: events.length, view, layout };
}

interface BrowserResult {
  interactive: number;
  update: number;
  cards: number;
}

/** Each shape and size in a fresh page, `ROUNDS` times; medians. */
async function measureInBrowser(): Promise<Map<string, BrowserResult>> {
  const outDir = mkdtempSync(path.join(os.tmpdir(), "zap-bench-plan-dag-"));
  const shared = { root: path.join(ROOT, "bench/plan-dag"), configFile: false as const, logLevel: "error" as const, resolve: { alias: { "@": ROOT } }, css: { postcss: ROOT } };
  const builtAt = performance.now();
  await build({ ...shared, base: "./", build: { outDir, emptyOutDir: true, reportCompressedSize: false } });
  console.log(`built the bench page in ${((performance.now() - builtAt) / 1000).toFixed(1)} s`);
  const port = await freePort();
  const server = await preview({ ...shared, build: { outDir }, preview: { port, host: "127.0.0.1", strictPort: true } });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  const samples = new Map<string, BrowserResult[]>();
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const shape of SHAPES) {
        for (const size of SIZES) {
          const page = await browser.newPage({ viewport: { width: 1416, height: 600 } });
          await page.goto(`http://127.0.0.1:${port}/index.html?shape=${shape}&n=${size}`);
          await page.waitForFunction("window.__planBench !== undefined", undefined, { timeout: 60_000 });
          const { interactiveAt, cards } = await page.evaluate<{ interactiveAt: number; cards: number }>("({ interactiveAt: window.__planBench.interactiveAt, cards: window.__planBench.cards })");
          const update = await page.evaluate<number>("window.__planBench.finish()");
          // Cards outside the viewport are not in the DOM (onlyRenderVisibleElements): every card that is must show completed.
          const completed = await page.locator('[data-status="completed"]').count();
          const onScreen = await page.locator('[data-testid^="plan-node-"]').count();
          if (completed !== onScreen) throw new Error(`${shape} ${size}: ${completed} of ${onScreen} cards on screen completed after the update`);
          await page.close();
          const key = `${shape} ${size}`;
          samples.set(key, [...(samples.get(key) ?? []), { interactive: interactiveAt, update, cards }]);
        }
      }
    }
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
    rmSync(outDir, { recursive: true, force: true });
  }
  const medians = new Map<string, BrowserResult>();
  for (const [key, list] of samples) {
    medians.set(key, { interactive: median(list.map((r) => r.interactive).sort((a, b) => a - b)), update: median(list.map((r) => r.update).sort((a, b) => a - b)), cards: list[0]?.cards ?? 0 });
  }
  return medians;
}

async function main(): Promise<void> {
  const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" / ");
  console.log(`machine: ${os.availableParallelism()} cores, load average ${load()} (1 / 5 / 15 min); node ${process.version}; ${REPEAT} timed repeats after one warm-up`);
  console.log(`dagre ranks plans of up to ${NETWORK_SIMPLEX_MAX_NODES} nodes by network simplex, larger ones by longest path`);
  console.log("shape     nodes  edges  events  view model (median / p95)   dagre layout (median / p95)   both, median");
  const results = [];
  for (const shape of SHAPES) {
    for (const size of SIZES) {
      const r = measure(shape, size);
      results.push(r);
      console.log(
        `${shape.padEnd(8)}  ${String(size).padStart(5)}  ${String(r.edges).padStart(5)}  ${String(r.events).padStart(6)}  ${`${fmt(median(r.view))} / ${fmt(p95(r.view))}`.padEnd(26)}  ${`${fmt(median(r.layout))} / ${fmt(p95(r.layout))}`.padEnd(28)}  ${fmt(median(r.view) + median(r.layout))}`,
      );
    }
  }
  for (const shape of SHAPES) {
    const small = results.find((r) => r.shape === shape && r.size === 50);
    const large = results.find((r) => r.shape === shape && r.size === 500);
    if (!small || !large) continue;
    const total = median(large.view) + median(large.layout);
    const ratio = total / (median(small.view) + median(small.layout));
    console.log(`${shape}: 500 nodes take ${ratio.toFixed(1)}× the 50-node baseline in node; ${fmt(total)}, ${((total / TARGET_MS) * 100).toFixed(1)} % of the ${TARGET_MS} ms target`);
  }

  const browser = await measureInBrowser();
  console.log(`\nChromium headless, software rendering, median of ${ROUNDS} rounds; the plan mid-run (half the nodes completed, a tenth running)`);
  console.log("shape     nodes  cards in DOM  navigation → interactive   live update → painted");
  let ok = true;
  for (const shape of SHAPES) {
    for (const size of SIZES) {
      const r = browser.get(`${shape} ${size}`);
      if (!r) continue;
      console.log(`${shape.padEnd(8)}  ${String(size).padStart(5)}  ${String(r.cards).padStart(12)}  ${fmt(r.interactive).padStart(24)}  ${fmt(r.update).padStart(22)}`);
    }
    const small = browser.get(`${shape} 50`);
    const large = browser.get(`${shape} 500`);
    if (!small || !large) continue;
    const pass = large.interactive <= TARGET_MS;
    ok &&= pass;
    console.log(`${pass ? "✓" : "✗"} ${shape}: 500 nodes interactive in ${fmt(large.interactive)} ≤ ${TARGET_MS} ms (${(large.interactive / small.interactive).toFixed(2)}× the 50-node baseline)`);
  }
  console.log(`load average after: ${load()}`);
  process.exitCode = ok ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
