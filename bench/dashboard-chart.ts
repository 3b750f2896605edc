// bench/dashboard-chart: the dashboard's chart library (uPlot, canvas) in
// Chromium with 30 days of per-minute points (43,200 per line) — time to build
// and draw a chart, to redraw it with new data (the 30 s refresh) and the frame
// rate while the cursor sweeps it — against 24 hours of per-minute points
// (1,440) measured in the same run, as bars, lines and four stacked lines.
// Target: a 30-day chart draws in ≤ 100 ms and hovers at ≥ 50 fps.
//
//   npx tsx bench/dashboard-chart.ts   (needs Chromium: /usr/bin/chromium or CHROMIUM_PATH)
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";

const ROOT = path.resolve(import.meta.dirname, "..");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SIZES = { "24 h per minute": 1_440, "30 d per minute": 43_200 } as const;
const SHAPES = [
  { name: "bars, 1 line", lines: 1, bars: true },
  { name: "lines, 3 lines", lines: 3, bars: false },
  { name: "stacked bars, 4 lines", lines: 4, bars: true },
  // What the dashboard draws when a chart has more buckets than pixels: filled areas (uPlot thins
  // linear paths to a min/max per pixel) instead of sub-pixel bars.
  { name: "stacked areas, 4 lines", lines: 4, bars: true, areas: true },
] as const;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

interface Measured {
  drawMs: number;
  redrawMs: number;
  hoverFps: number;
}

/** Builds one chart like components/dashboard/time-chart.tsx does and times it (script as text: tsx must not wrap it). */
async function measure(page: Page, points: number, lines: number, bars: boolean, areas: boolean): Promise<Measured> {
  const timings = (await page.evaluate(`(async () => {
    document.body.innerHTML = '<div id="box" style="width:600px"></div>';
    const now = Math.floor(Date.now() / 1000 / 60) * 60;
    const xs = Array.from({ length: ${points} }, (_, i) => now - (${points} - i) * 60);
    const make = (seed) => {
      let below = null;
      const out = [];
      for (let l = 0; l < ${lines}; l++) {
        const ys = xs.map((_, i) => Math.round(5 + 4 * Math.sin((i + seed * 7 + l * 13) / 40) + ((i * 7919 + l) % 5)));
        const row = ${bars} && below ? ys.map((v, i) => v + below[i]) : ys;
        out.push(row);
        below = row;
      }
      return [xs, ...(${bars} ? out.reverse() : out)];
    };
    const series = [{}, ...Array.from({ length: ${lines} }, (_, l) => ({
      stroke: "#4f46e5", fill: ${bars} ? "#4f46e5" : undefined, width: ${bars} ? 0 : 1.5,
      paths: ${areas} ? uPlot.paths.linear() : ${bars} ? uPlot.paths.bars({ align: 1, size: [0.8, 60, 0.5] }) : uPlot.paths.linear(), points: { show: false },
    }))];
    // uPlot draws in a microtask after a change: the draw hook marks when the canvas is done.
    let drawnAt = 0;
    const opts = { width: 600, height: 180, legend: { show: false }, cursor: { y: false, drag: { x: false, y: false } }, scales: { x: { time: true } }, series, hooks: { draw: [() => { drawnAt = performance.now(); }] } };
    const data0 = make(0);
    const data1 = make(1);
    const t0 = performance.now();
    const u = new uPlot(opts, data0, document.getElementById("box"));
    await new Promise((r) => setTimeout(r, 0));
    const drawMs = drawnAt - t0;
    const t1 = performance.now();
    u.setData(data1);
    await new Promise((r) => setTimeout(r, 0));
    const redrawMs = drawnAt - t1;
    window.__chart = u;
    return { drawMs, redrawMs };
  })()`)) as { drawMs: number; redrawMs: number };

  // Sweep the cursor across the plot for one second, counting frames.
  const box = await page.locator(".u-over").boundingBox();
  if (!box) throw new Error("the chart is not on screen");
  await page.evaluate(`(() => { const s = { frames: 0, on: true, t: performance.now() }; window.__f = s; const tick = () => { s.frames++; if (s.on) requestAnimationFrame(tick); }; requestAnimationFrame(tick); })()`);
  const started = Date.now();
  for (let i = 0; i <= 60; i++) {
    await page.mouse.move(box.x + (box.width * i) / 60, box.y + box.height / 2);
    const wait = started + (i * 1000) / 60 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  const hoverFps = (await page.evaluate(`(() => { window.__f.on = false; return (window.__f.frames * 1000) / (performance.now() - window.__f.t); })()`)) as number;
  await page.evaluate(`window.__chart.destroy()`);
  return { ...timings, hoverFps };
}

async function main(): Promise<void> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
  const page = await browser.newPage({ viewport: { width: 800, height: 400 } });
  await page.goto("about:blank");
  await page.addScriptTag({ path: path.join(ROOT, "node_modules/uplot/dist/uPlot.iife.min.js") });
  await page.addStyleTag({ path: path.join(ROOT, "node_modules/uplot/dist/uPlot.min.css") });
  const [load1] = os.loadavg();
  console.log(`bench/dashboard-chart: uPlot in Chromium, ${os.cpus().length} cores, load ${load1?.toFixed(2)}, median of ${ROUNDS} rounds`);
  for (const shape of SHAPES) {
    const results: Record<string, Measured> = {};
    for (const [label, points] of Object.entries(SIZES)) {
      await measure(page, points, shape.lines, shape.bars, "areas" in shape); // warm-up: JIT and canvas
      const rounds: Measured[] = [];
      for (let r = 0; r < ROUNDS; r++) rounds.push(await measure(page, points, shape.lines, shape.bars, "areas" in shape));
      results[label] = { drawMs: median(rounds.map((m) => m.drawMs)), redrawMs: median(rounds.map((m) => m.redrawMs)), hoverFps: median(rounds.map((m) => m.hoverFps)) };
    }
    const base = results["24 h per minute"];
    const big = results["30 d per minute"];
    if (!base || !big) continue;
    console.log(
      `${shape.name.padEnd(22)} 24 h: draw ${base.drawMs.toFixed(1)} ms, redraw ${base.redrawMs.toFixed(1)} ms, hover ${base.hoverFps.toFixed(0)} fps | ` +
        `30 d: draw ${big.drawMs.toFixed(1)} ms (${(big.drawMs / base.drawMs).toFixed(1)}×), redraw ${big.redrawMs.toFixed(1)} ms (${(big.redrawMs / base.redrawMs).toFixed(1)}×), hover ${big.hoverFps.toFixed(0)} fps`,
    );
  }
  console.log(`load after: ${os.loadavg()[0]?.toFixed(2)}`);
  await browser.close();
}

await main();
