// The overview read at a glance (issue 37 §3), as a user at 1440×900 and
// 1280×800 meets it: the header names the step the figures are bucketed by (the
// API's own), the range ends now, one series key has one colour on every chart
// (red only for failures), a latency legend says which window its figure is
// of, and no tile or axis label is cut off. A graph of its own with two
// versions gives the charts split by version two keys that rank differently
// from chart to chart (and no other spec's runs to count).
import { type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import type { MetricsDashboard } from "../lib/metrics/schemas";
import { stepMinutesFor } from "../lib/metrics/step";
import { storageStateFor } from "./support";

test.use({ storageState: storageStateFor("viewer") });

/** The status badges' red: only failure-like keys may wear it. */
const RED = "rgb(220, 38, 38)";
const FAILURE_LIKE = new Set(["failed", "error", "rejected", "refused"]);

/** A graph of its own with two saved versions of one demo agent (2 and 3; version 1 is the new graph's). */
async function freshGraph(api: APIRequestContext): Promise<string> {
  const graph = `glance-${Date.now().toString(36)}`;
  expect((await api.post("/api/agents", { data: { name: graph } })).status()).toBe(201);
  for (const baseVersion of [1, 2]) {
    const saved = await api.post(`/api/agents/${graph}/versions`, {
      data: { baseVersion, message: `version ${baseVersion + 1}`, graph: { entryAgent: "solo", agents: [{ name: "solo", model: "demo/assistant", systemPrompt: "Answer." }], limits: { followUpWindowSeconds: 0 } } },
    });
    expect(saved.status(), await saved.text()).toBe(201);
  }
  return graph;
}

async function finishedRun(api: APIRequestContext, graph: string, version: number, task: string): Promise<void> {
  const response = await api.post("/api/runs", { data: { graph, version, task } });
  expect(response.status(), await response.text()).toBe(201);
  const { runId } = (await response.json()) as { runId: string };
  await expect
    .poll(async () => ((await (await api.get(`/api/runs/${encodeURIComponent(runId)}`)).json()) as { run: { status: string } }).run.status, { timeout: 20_000, message: `run ${runId} ends` })
    .toMatch(/^(completed|failed)$/);
}

/** A step in the words a reader expects: "1 min", "10 min", "2 h", "1 d". */
function stepWords(stepSeconds: number): string {
  const minutes = stepSeconds / 60;
  if (minutes % 1440 === 0) return `${minutes / 1440} d`;
  if (minutes % 60 === 0) return `${minutes / 60} h`;
  return `${minutes} min`;
}

/** Each legend entry of a chart: what it names and the colour of its swatch. */
async function legendColours(panel: Locator): Promise<Map<string, string>> {
  const entries = await panel.locator('[data-testid$="-legend"]').evaluateAll((items) =>
    items.map((item) => {
      const swatch = item.querySelector("span");
      const figure = item.querySelector("span.tabular-nums")?.textContent ?? "";
      const text = (item.textContent ?? "").trim();
      const label = (figure && text.endsWith(figure) ? text.slice(0, -figure.length) : text).trim();
      return [label, swatch ? getComputedStyle(swatch).backgroundColor : ""] as const;
    }),
  );
  return new Map(entries);
}

/** Text nodes of the tiles that are cut off: wider than their box, or drawn outside their tile. */
async function clippedTileTexts(tiles: Locator): Promise<string[]> {
  return tiles.evaluate((container) => {
    const clipped: string[] = [];
    const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const parent = node.parentElement;
      if (!text || !parent) continue;
      const tile = [...container.children].find((child) => child.contains(parent)) ?? container;
      const box = tile.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(node);
      const outside = [...range.getClientRects()].some((r) => r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5);
      if (outside || parent.scrollWidth > parent.clientWidth + 1) clipped.push(text);
    }
    return clipped;
  });
}

/**
 * Charts whose canvas has ink on its outermost pixels: a tick label (the only thing drawn outside the plot area)
 * running off the canvas. Returns the chart's test id and the edge.
 */
async function clippedAxisLabels(page: Page): Promise<string[]> {
  return page.locator('[data-testid^="chart-"][role="img"]').evaluateAll((charts) =>
    charts.flatMap((chart) => {
      const canvas = chart.querySelector("canvas");
      const context = canvas?.getContext("2d");
      if (!canvas || !context || canvas.width === 0) return [];
      const { width, height } = canvas;
      const inked = (x: number, y: number, w: number, h: number) => {
        const pixels = context.getImageData(x, y, w, h).data;
        for (let i = 3; i < pixels.length; i += 4) if ((pixels[i] ?? 0) > 40) return true;
        return false;
      };
      const edges: [string, boolean][] = [
        ["left", inked(0, 0, 1, height)],
        ["right", inked(width - 1, 0, 1, height)],
        ["top", inked(0, 0, width, 1)],
        ["bottom", inked(0, height - 1, width, 1)],
      ];
      return edges.filter(([, hit]) => hit).map(([edge]) => `${chart.getAttribute("data-testid")}: ${edge}`);
    }),
  );
}

test("at 24 h the overview says its real step, ends now, keeps one colour per key and fits its labels", async ({ page, playwright, baseURL }) => {
  test.setTimeout(60_000);
  const builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder"), extraHTTPHeaders: { Origin: baseURL ?? "" } });
  // Version 2 has more runs, version 3 the only failure: ranked by total, the two swap places between the runs and failures charts.
  const graph = await freshGraph(builder);
  const [busy, flaky] = ["v2", "v3"];
  await Promise.all([
    finishedRun(builder, graph, 2, "answer: glance one"),
    finishedRun(builder, graph, 2, "answer: glance two"),
    finishedRun(builder, graph, 2, "answer: glance three"),
    finishedRun(builder, graph, 3, "fail model\nglance failing run"),
  ]);

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(viewport);
    const asked = Date.now();
    await page.goto(`/?range=24h&graph=${graph}&breakdown=version`);
    const answer = (await (await page.request.get(`/api/metrics?range=24h&graph=${graph}&breakdown=version&series=runs_by_state`)).json()) as MetricsDashboard;
    expect.soft(Date.parse(answer.range.to), "the range ends now, not in the future").toBeLessThanOrEqual(Date.now());
    expect(Date.parse(answer.range.to)).toBeGreaterThanOrEqual(asked - 60_000);
    await expect.soft(page.getByTestId("dashboard-range"), "the header names the step the API bucketed by").toContainText(`one point per ${stepWords(answer.range.stepSeconds)}`);
    // The step is the one chosen from the range (lib/metrics/step.ts), and whatever it is, 24 h is at most 150
    // points (a literal here, so a step.ts that went back to 1-minute steps fails too): 1,440 one-minute points
    // draw a day's activity as a 1-px spike.
    expect.soft(answer.range.stepSeconds, "the API's step at 24 h is the one chosen from the range").toBe(stepMinutesFor(24 * 60) * 60);
    const points = Math.ceil((Date.parse(answer.range.to) - Date.parse(answer.range.from)) / 1000 / answer.range.stepSeconds);
    expect.soft(points, `24 h in steps of ${answer.range.stepSeconds} s`).toBeLessThanOrEqual(150);

    // Both versions are drawn on the runs and the failures charts: each keeps its colour, and only failures are red.
    const runs = page.getByTestId("panel-runs_by_state");
    const failures = page.getByTestId("panel-started_failed");
    // The charts read rollups derived off the runs' path: on a slow machine the page can come before them, so it
    // is opened again until the runs chart names both versions (then every other check reads the same page).
    await expect
      .poll(
        async () => {
          const named = [...(await legendColours(runs)).keys()].sort().join(", ");
          if (named !== `${busy}, ${flaky}`) await page.reload();
          return named;
        },
        { message: "the runs chart names both versions", timeout: 30_000 },
      )
      .toBe(`${busy}, ${flaky}`);
    await expect(runs.getByTestId("chart-runs_by_state-legend")).toHaveCount(2);
    await expect(failures.getByTestId("chart-started_failed-legend")).toHaveCount(1);
    const charts = await Promise.all([runs, failures, page.getByTestId("panel-tokens_in")].map(legendColours));
    for (const [i, chart] of charts.entries())
      for (const [label, colour] of chart) {
        expect.soft(colour === RED, `${label} is red only if it names a failure`).toBe(FAILURE_LIKE.has(label));
        for (const other of charts.slice(i + 1)) if (other.has(label)) expect.soft(other.get(label), `${label} keeps its colour from chart to chart`).toBe(colour);
      }
    expect(charts[0]?.get(busy), `${busy} is drawn on the runs chart`).toBeTruthy();
    expect(charts[0]?.get(flaky), `${flaky} is drawn on the runs chart`).toBeTruthy();
    expect.soft(charts[1]?.get(flaky), `${flaky} is drawn on the failures chart`).toBe(charts[0]?.get(flaky));

    // A latency legend says its figure is over the range (the lines are per step).
    await page.goto(`/?range=24h&graph=${graph}`);
    await expect.soft(page.getByTestId("chart-run_latency-legend").first(), "the legend says which window its percentile is of").toContainText("over the range");

    // Nothing is cut off: the tiles' words and the charts' axis labels.
    await expect(page.getByTestId("stat-tokens")).not.toHaveText("0");
    expect.soft(await clippedTileTexts(page.getByTestId("overview-tiles")), `clipped tile text at ${viewport.width} px`).toEqual([]);
    await expect(page.locator('[data-testid="chart-runs_by_state"] canvas')).toBeVisible();
    expect.soft(await clippedAxisLabels(page), `axis labels off the canvas at ${viewport.width} px`).toEqual([]);
  }
  await builder.dispose();
});
