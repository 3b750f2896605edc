// The experiment compare view (issue 27 §4): a two-item dataset run against two
// versions of a graph, where v2 lost the calculator so the arithmetic item
// regresses. The page marks the regression, filters by change and tag, opens
// the run diff of that item in one click, and the CSV export says the same.
import { type APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

test.use({ storageState: storageStateFor("builder") });

async function ok(response: Awaited<ReturnType<APIRequestContext["post"]>>, what: string) {
  expect(response.ok(), `${what}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as Record<string, unknown>;
}

async function startSlowExperiment(request: APIRequestContext, stamp: string): Promise<string> {
  const graph = `e2e-cmp-slow-${stamp}`;
  await ok(await request.post("/api/agents/import", { data: { name: graph, json: JSON.stringify({ entryAgent: "main", agents: [{ name: "main", model: "demo/test", tools: [] }], limits: { followUpWindowSeconds: 0 } }) } }), "create the graph");
  const dataset = `e2e-cmp-slow-ds-${stamp}`;
  const content = Array.from({ length: 4 }, (_, i) => JSON.stringify({ task: `think 20000\nanswer: slow ${i}`, expected_output: `slow ${i}` })).join("\n");
  await ok(await request.post("/api/datasets/import", { data: { newDataset: { name: dataset }, format: "jsonl", content } }), "import the dataset");
  const started = await ok(await request.post("/api/experiments", { data: { dataset, targets: [{ graph, version: 1 }], scorers: [{ kind: "exact" }], concurrency: 1 } }), "start the experiment");
  return String(started.experimentId);
}

test("a viewer sees a running experiment without the cancel button; a builder cancels it from the page", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const experimentId = await startSlowExperiment(page.request, Date.now().toString(36));
  const viewer = await browser.newContext({ storageState: storageStateFor("viewer") });
  try {
    const viewerPage = await viewer.newPage();
    await viewerPage.goto(`/experiments/${experimentId}`);
    await expect(viewerPage.getByTestId("experiment-status")).toHaveText("running");
    await expect(viewerPage.getByRole("button", { name: "Cancel experiment" })).toHaveCount(0);
  } finally {
    await viewer.close();
  }
  await page.goto(`/experiments/${experimentId}`);
  await expect(page.getByTestId("experiment-status")).toHaveText("running");
  await page.getByRole("button", { name: "Cancel experiment" }).click();
  await expect(page.getByTestId("experiment-status")).toHaveText("cancelled");
  await expect(page.getByRole("button", { name: "Cancel experiment" })).toHaveCount(0);
});

test("compare view: regression marked and filtered, diff one click away, CSV export", async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const graph = `e2e-cmp-${stamp}`;
  const agentGraph = (tools: string[]) => ({ entryAgent: "main", agents: [{ name: "main", model: "demo/test", tools }], limits: { followUpWindowSeconds: 0 } });
  await ok(await page.request.post("/api/agents/import", { data: { name: graph, json: JSON.stringify(agentGraph(["calculator"])) } }), "create the graph");
  await ok(await page.request.post(`/api/agents/${graph}/versions`, { data: { baseVersion: 1, message: "v2: no calculator", graph: agentGraph([]) } }), "save v2");

  const lines = [
    { task: "answer: hello there", expected_output: "hello there", tags: ["smalltalk"] },
    { task: 'tool calculator {"expression":"6*7"}', expected_output: "42", tags: ["math"] },
  ];
  const dataset = `e2e-cmp-ds-${stamp}`;
  await ok(
    await page.request.post("/api/datasets/import", { data: { newDataset: { name: dataset }, format: "jsonl", content: lines.map((line) => JSON.stringify(line)).join("\n") } }),
    "import the dataset",
  );
  const started = await ok(
    await page.request.post("/api/experiments", {
      data: { name: `compare ${stamp}`, dataset, targets: [{ graph, version: 1 }, { graph, version: 2 }], scorers: [{ kind: "contains" }], liveTools: ["calculator"] },
    }),
    "start the experiment",
  );
  const experimentId = String(started.experimentId);

  await page.goto(`/experiments/${experimentId}`);
  await expect(page.getByTestId("experiment-status")).toHaveText("completed", { timeout: 90_000 });
  await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");

  const rows = page.locator('[data-testid^="experiment-row-"]');
  await expect(rows).toHaveCount(2);
  const mathRow = rows.filter({ hasText: "calculator" });
  const greetingRow = rows.filter({ hasText: "hello there" });
  await expect(mathRow).toHaveAttribute("data-regression", "true");
  await expect(greetingRow).not.toHaveAttribute("data-regression", "true");
  await expect(page.getByTestId("summary-regressions-1")).toHaveText("1 regression");
  await expect(page.getByTestId("summary-0-contains")).toContainText("pass 2/2");
  // Δ: two items, changes 0 and −1 → mean −0.50 over 2 pairs, an interval that spans 0.
  await expect(page.getByTestId("summary-delta-1-contains")).toContainText("Δ -0.50 (-1.00 to");

  // Filters: only regressions leaves the math item; the smalltalk tag leaves the greeting.
  await page.getByLabel("Show").selectOption("regressions");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("calculator");
  await page.getByLabel("Show").selectOption("all");
  await page.getByLabel("Tag").selectOption("smalltalk");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("hello there");
  await page.getByLabel("Tag").selectOption("");

  // Each cell links to its run; the row's diff opens the baseline against the regressed run.
  const baselineRun = await mathRow.locator("td").nth(2).getByRole("link").first().getAttribute("href");
  expect(baselineRun).toMatch(/^\/runs\/[^/]+$/);
  await mathRow.getByRole("link", { name: /Open the diff of item/ }).click();
  await expect(page).toHaveURL(/\/runs\/compare\?a=[^&]+&b=.+/);
  expect(new URL(page.url()).searchParams.get("a")).toBe(baselineRun?.slice("/runs/".length));

  // The CSV: a line per item and target, the regression named; unknown and malformed ids refused.
  const csv = await page.request.get(`/api/experiments/${experimentId}/export`);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect(csv.headers()["content-disposition"]).toContain(`${experimentId}.csv`);
  const text = await csv.text();
  const csvLines = text.trim().split("\r\n");
  expect(csvLines[0]).toContain("contains,contains_pass,contains_detail,change_vs_baseline,change_reasons");
  expect(csvLines).toHaveLength(5);
  expect(csvLines.filter((line) => line.endsWith(",regressed,contains: pass → fail") || line.endsWith(",regressed,the run failed"))).toHaveLength(1);
  expect((await page.request.get("/api/experiments/exp_doesnotexist1/export")).status()).toBe(404);
  expect((await page.request.get("/api/experiments/nope/export")).status()).toBe(422);
});
