// Figures that agree (issue 37 §1), as a user reads them: the overview's run
// tiles add up and each opens exactly the runs it counts; a step's duration
// reads the same in the trace, the span details, the run header, the compare
// page and the API; a run whose router ran out of agents was routed to none;
// an alert's webhook column says when no webhook is configured; every moment
// is written one way. Each test makes the graph and runs it reads.
import { type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { hydrationFailures } from "./hydration";
import { clickAndExpectUrl, hydrated, storageStateFor } from "./support";

// The browser's zone is not the server's (UTC in npm test), as for most readers: a moment the server wrote into the
// HTML would differ at hydration, and React would rebuild the page (CI's lost tile clicks, stops 51–53).
test.use({ storageState: storageStateFor("viewer"), viewport: { width: 1440, height: 1000 }, timezoneId: "Asia/Kolkata" });

let builder: APIRequestContext;

test.beforeAll(async ({ playwright, baseURL }) => {
  builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder"), extraHTTPHeaders: { Origin: baseURL ?? "" } });
});

test.afterAll(async () => {
  await builder.dispose();
});

/** A graph of its own (one demo agent), so a dashboard filtered to it counts only this test's runs. */
async function freshGraph(prefix: string, followUpWindowSeconds: number): Promise<string> {
  const graph = `${prefix}-${Date.now().toString(36)}`;
  expect((await builder.post("/api/agents", { data: { name: graph } })).status()).toBe(201);
  const saved = await builder.post(`/api/agents/${graph}/versions`, {
    data: { baseVersion: 1, message: "one agent", graph: { entryAgent: "solo", agents: [{ name: "solo", model: "demo/assistant", systemPrompt: "Answer." }], limits: { followUpWindowSeconds } } },
  });
  expect(saved.status(), await saved.text()).toBe(201);
  return graph;
}

async function startRun(graph: string, task: string, context?: Record<string, unknown>): Promise<string> {
  const response = await builder.post("/api/runs", { data: { graph, task, ...(context ? { context } : {}) } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { runId: string }).runId;
}

async function reaches(page: Page, runId: string, status: string): Promise<void> {
  await expect
    .poll(async () => ((await (await page.request.get(`/api/runs/${encodeURIComponent(runId)}`)).json()) as { run: { status: string } }).run.status, { timeout: 30_000, message: `run ${runId} is ${status}` })
    .toBe(status);
}

/** The product's one date-time format in the browser's en-US: "Nov 29, 2026, 01:44:54" (24-hour). */
const MOMENT = /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2}:\d{2}$/;

/**
 * Every text node under `root` that is cut off: a box outside the tile (card) it is in, or inside an element that
 * hides what overflows it. Empty when every word of every tile can be read.
 */
async function clippedTexts(root: Locator): Promise<string[]> {
  return root.evaluate((container) => {
    const clipped: string[] = [];
    const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const parent = node.parentElement;
      if (!text || !parent) continue;
      const tile = parent.closest("section") ?? container;
      const box = tile.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(node);
      const outside = [...range.getClientRects()].some((r) => r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5);
      let hidden = false;
      for (let el: HTMLElement | null = parent; el && tile.contains(el); el = el.parentElement) {
        const style = getComputedStyle(el);
        const hides = [style.overflowX, style.overflowY].some((o) => o !== "visible") || style.textOverflow === "ellipsis";
        if (hides && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)) hidden = true;
      }
      if (outside || hidden) clipped.push(text);
    }
    return clipped;
  });
}

test("the overview's run tiles add up, say the success rate's denominator, and each opens exactly the runs it counts", async ({ page }) => {
  test.setTimeout(120_000);
  // Runs stay open for follow-ups after they answer, so one can be cancelled after its answer (it counts once, as cancelled).
  const graph = await freshGraph("figures", 300);
  const done = await startRun(graph, "answer: figures completed run");
  const cancelledAfterAnswer = await startRun(graph, "answer: figures answered then cancelled");
  const failed = await startRun(graph, "fail model\nfigures failing run");
  const working = await startRun(graph, "think 120000\nanswer: figures slow run");
  await Promise.all([reaches(page, done, "completed"), reaches(page, cancelledAfterAnswer, "completed"), reaches(page, failed, "failed"), reaches(page, working, "thinking")]);
  expect((await builder.post(`/api/runs/${encodeURIComponent(cancelledAfterAnswer)}/cancel`)).status()).toBeLessThan(300);
  await reaches(page, cancelledAfterAnswer, "cancelled");

  const hydration = hydrationFailures(page);
  await page.goto(`/?graph=${graph}&range=1h`);
  const tile = (name: string) => page.getByTestId(`stat-runs-${name}`);
  // The figures are derived a moment after the ledger is written: the page reads again until they are in.
  await expect(tile("started")).toHaveText("4");
  await expect(tile("completed"), "the run cancelled after its answer is not also completed").toHaveText("1");
  await expect(tile("failed")).toHaveText("1");
  await expect(tile("cancelled")).toHaveText("1");
  await expect(tile("running")).toHaveText("1");
  const figure = async (name: string) => Number((await tile(name).textContent())?.replaceAll(",", ""));
  expect((await figure("completed")) + (await figure("failed")) + (await figure("cancelled")) + (await figure("running")), "the tiles add up to the runs started").toBe(await figure("started"));
  await expect(page.getByTestId("stat-success-rate")).toHaveText("33.3 %");
  await expect(page.getByTestId("stat-success-rate-note"), "the rate says what it divides").toHaveText("1 completed of 3 ended");
  await expect(page.getByTestId("runs-counted")).toContainText("with the runs experiments started");

  // No word of any tile is cut off, however wide the window.
  for (const width of [1440, 1024, 768, 390]) {
    await page.setViewportSize({ width, height: 1000 });
    expect(await clippedTexts(page.getByTestId("overview-tiles")), `clipped tile text at ${width} px`).toEqual([]);
  }
  await page.setViewportSize({ width: 1440, height: 1000 });

  // Each tile opens the runs list with exactly its runs: the same start range and graph, experiment runs shown as counted.
  const expected: [string, string | null, string[]][] = [
    ["started", null, ["figures completed run", "figures answered then cancelled", "figures failing run", "figures slow run"]],
    ["completed", "completed", ["figures completed run"]],
    ["failed", "failed", ["figures failing run"]],
    ["cancelled", "cancelled", ["figures answered then cancelled"]],
    ["running", "active", ["figures slow run"]],
  ];
  for (const [name, status, tasks] of expected) {
    await page.goto(`/?graph=${graph}&range=1h`);
    await expect(tile(name)).not.toHaveText("0");
    await hydrated(tile(name));
    await clickAndExpectUrl(page, tile(name), /\/runs\?/);
    const query = Object.fromEntries(new URL(page.url()).searchParams);
    expect(query, `${name}: the list's filters`).toMatchObject({ graph, experiments: "1", ...(status ? { status } : {}) });
    if (!status) expect(query).not.toHaveProperty("status");
    await expect(page.getByRole("checkbox", { name: "Show experiment runs" }), "the list says it shows experiment runs, as the tile counts them").toBeChecked();
    const rows = page.getByTestId("run-row");
    await expect(rows, `${name}: exactly the runs the tile counts`).toHaveCount(tasks.length);
    for (const task of tasks) await expect(rows.filter({ hasText: task }), `${name} lists "${task}"`).toHaveCount(1);
  }

  expect(hydration, "the overview and the runs list hydrate as the server wrote them (no text written in the server's zone)").toEqual([]);
  expect((await builder.post(`/api/runs/${encodeURIComponent(working)}/cancel`)).status()).toBeLessThan(300);
});

test("a step's duration is one figure: trace, span details, run header, compare page and API", async ({ page }) => {
  test.setTimeout(120_000);
  const graph = await freshGraph("durations", 0);
  const a = await startRun(graph, "answer: durations one");
  await reaches(page, a, "completed");
  const b = await startRun(graph, "answer: durations two");
  await reaches(page, b, "completed");

  // The model call as the API says it: its event's duration is its span's.
  const events = (await (await page.request.get(`/api/runs/${encodeURIComponent(a)}/events?since=0`)).json()) as { events: { type: string; latencyMs?: number }[] };
  const spans = (await (await page.request.get(`/api/runs/${encodeURIComponent(a)}/spans`)).json()) as { rows: [string, string | null, string, string, string, number, number | null][] };
  const inference = spans.rows.find((row) => row[2] === "inference");
  const spanMs = inference && inference[6] !== null ? inference[6] - inference[5] : Number.NaN;
  expect(events.events.find((e) => e.type === "inference_completed")?.latencyMs, "the API's event says the span's duration").toBe(spanMs);

  // The same call in the trace, on the compare page and in its details.
  await page.goto(`/runs/${encodeURIComponent(a)}`);
  const call = page.locator('[data-testid="span-row"][data-kind="inference"]').first();
  const traced = ((await call.getByRole("button", { name: /^model call / }).getAttribute("aria-label")) ?? "").replace(/^.*, /, "");
  expect(traced, "the trace's figure").toMatch(/^\d+ ms$|^\d+\.\d s$/);
  await page.goto(`/runs/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`);
  const compared = page.getByTestId("diff-step-a").filter({ hasText: "Model call" }).first();
  await expect(compared, "the compare page's figure is the trace's").toContainText(new RegExp(`· ${traced.replace(".", "\\.")}(?!\\d)`));
  await page.goto(`/runs/${encodeURIComponent(a)}`);
  await call.getByTitle(/^model call /).click();
  await expect(page.getByTestId("span-duration")).toHaveText(traced);

  // A sub-run that answered and waits for its parent: its run span, its details and its header say one duration.
  const lead = await startRun("support-triage", "message billing: Is A-1003 refundable?\nanswer: figures sub-run asked", { company: "Acme", customer: { name: "Ada" } });
  await reaches(page, lead, "completed");
  const list = (await (await page.request.get(`/api/runs/list?graph=support-triage&pageSize=50`)).json()) as { rows: { runId: string; subRuns: { runId: string; agentName: string }[] }[] };
  const child = list.rows.find((row) => row.runId === lead)?.subRuns.find((sub) => sub.agentName === "billing")?.runId;
  expect(child, "the billing sub-run").toBeTruthy();
  await page.goto(`/runs/${encodeURIComponent(child ?? "")}`);
  const header = page.getByTestId("run-duration");
  await expect(header).toHaveText(/^\d+ ms$|^\d+\.\d s$/);
  const ownSpan = page.locator('[data-testid="span-row"][data-kind="run"]').first();
  await expect(ownSpan).toHaveAttribute("data-status", "ok");
  await ownSpan.getByTitle(/^run billing/).click();
  await expect(page.getByTestId("span-status"), "the details say what the header says, not 'running' while it waits").toHaveText("ok");
  await expect(page.getByTestId("span-duration")).toHaveText((await header.textContent()) ?? "");
});

test("a run whose router ran out of agents says it was routed to none, on its page and in the list", async ({ page }) => {
  const tag = `figures-exhausted-${Date.now()}`;
  const task = ["route billing 0.9", "route technical 0.9", "route general 0.9", "@billing: fail model", "@technical: fail model", "@general: fail model", tag].join("\n");
  const runId = await startRun("help-desk", task);
  await reaches(page, runId, "failed");
  await page.goto(`/runs/${encodeURIComponent(runId)}`);
  await expect(page.getByTestId("routed-to")).toHaveText("no agent: routing exhausted (tried billing, technical, general)");
  await page.goto(`/runs?graph=help-desk&reason=routing_exhausted`);
  await expect(page.getByTestId("run-row").filter({ hasText: tag }).getByTestId("routed-to")).toHaveText(/^no agent: routing exhausted/);
});

test("an alert's webhook column says no webhook is configured, not that it was not sent", async ({ page }) => {
  const graph = await freshGraph("webhook", 0);
  const failed = await startRun(graph, "fail model\nfigures monitored failure");
  await reaches(page, failed, "failed");
  const name = `Failures of ${graph}`;
  const created = await builder.post("/api/monitors", { data: { name, series: "runs_failed", comparator: "gt", threshold: 0, windowMinutes: 30, filters: { graph } } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = ((await created.json()) as { monitor: { id: string } }).monitor;

  await page.goto("/monitors");
  const alert = page.getByRole("table", { name: "Alert history" }).getByRole("row").filter({ hasText: name });
  // The worker evaluates every 2 s here (playwright.config.ts): reload until the alert is in the history.
  await expect(async () => {
    await page.reload();
    await expect(alert).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(alert, "this server has no webhook (ZAP_WEBHOOK_URL unset): nothing was owed").toContainText("no webhook configured");
  await expect(alert).not.toContainText("not sent");
  expect((await builder.delete(`/api/monitors/${id}`)).status()).toBeLessThan(300);
});

test("every moment reads one way: the runs list, the run header, the dashboard and the monitors", async ({ page }) => {
  const graph = await freshGraph("moments", 0);
  const runId = await startRun(graph, "answer: figures moments");
  await reaches(page, runId, "completed");
  const moments = async (scope: Locator) => {
    await expect(scope.locator("time").first()).not.toHaveText("");
    return scope.locator("time").allTextContents();
  };

  await page.goto(`/runs?graph=${graph}`);
  const row = page.getByTestId("run-row").filter({ hasText: "figures moments" });
  await expect(row, "the runs list's start, 24-hour").toContainText(new RegExp(MOMENT.source.slice(1, -1)));
  await expect(row).not.toContainText(/\d (AM|PM)/);
  await expect(page.getByTestId("run-row-started")).toHaveText(MOMENT);
  await page.goto(`/runs/${encodeURIComponent(runId)}`);
  await expect(page.getByTestId("run-started")).toHaveText(MOMENT);
  await page.goto(`/?graph=${graph}&range=1h`);
  const range = page.getByTestId("dashboard-range");
  for (const text of await moments(range)) expect(text, "the refresh time").toMatch(MOMENT);
  await expect(range, "the range: its shared date once, both times on the same clock").toContainText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2}:\d{2}\s–\s(?:[A-Z][a-z]{2} \d{1,2}, \d{4}, )?\d{2}:\d{2}:\d{2} ·/);
  // The monitors page: whatever moments it shows (evaluations, alerts of this stack's monitors), each in the same format.
  await page.goto("/monitors");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const times = page.locator("main time");
  // A moment is written once the page runs in the browser (components/ui/date-time.tsx).
  if (await times.count()) await expect(times.first()).not.toHaveText("");
  for (const text of await times.allTextContents()) expect(text, "a moment on the monitors page").toMatch(MOMENT);
  await expect(page.locator("main"), "no 12-hour clock on the monitors page").not.toContainText(/\d:\d{2}(:\d{2})? ?(AM|PM)\b/);
});
