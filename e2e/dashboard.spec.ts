// The overview dashboard as a user meets it: runs of a fresh graph show up in
// the counts, a failure is drawn by its typed reason, and clicking the failed
// bar on the canvas opens the runs list filtered to exactly that run.
import { type APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import type { MetricsDashboard } from "../lib/metrics/schemas";
import { storageStateFor } from "./support";

type RunSummary = { run: { status: string } };

async function startRun(api: APIRequestContext, graph: string, task: string): Promise<string> {
  const response = await api.post("/api/runs", { data: { graph, task } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { runId: string }).runId;
}

test.describe("the overview dashboard", () => {
  test.use({ storageState: storageStateFor("viewer"), viewport: { width: 1440, height: 1000 } });

  test("counts a graph's runs, splits failures by reason, and a failed bar opens exactly its runs", async ({ page, playwright, baseURL }) => {
    const builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder"), extraHTTPHeaders: { Origin: baseURL ?? "" } });
    // A graph of its own, so the dashboard filtered to it counts only this test's runs.
    const graph = `dash-${Date.now().toString(36)}`;
    expect((await builder.post("/api/agents", { data: { name: graph } })).status()).toBe(201);
    const saved = await builder.post(`/api/agents/${graph}/versions`, {
      data: { baseVersion: 1, message: "one agent", graph: { entryAgent: "solo", agents: [{ name: "solo", model: "demo/assistant", systemPrompt: "Answer." }], limits: { followUpWindowSeconds: 0 } } },
    });
    expect(saved.status(), await saved.text()).toBe(201);

    await page.goto(`/?graph=${graph}`);
    await expect(page.getByTestId("stat-runs-started")).toHaveText("0");
    await expect(page.getByTestId("chart-started_failed-empty")).toContainText("No run started in this range has failed");

    // A failed run is counted in the minute it started, as the runs list filters it: its bar lists exactly it.
    const runs = await Promise.all([startRun(builder, graph, "answer: first"), startRun(builder, graph, "answer: second"), startRun(builder, graph, "fail model\ndashboard failing run")]);
    for (const runId of runs) {
      await expect.poll(async () => ((await (await builder.get(`/api/runs/${runId}`)).json()) as RunSummary).run.status, { timeout: 20_000 }).toMatch(/^(completed|failed)$/);
    }

    // Picking a range asks again: the counts move from 0.
    await page.getByRole("group", { name: "Range" }).getByRole("button", { name: "1 h" }).click();
    await expect(page).toHaveURL(/range=1h/);
    await expect(page.getByTestId("stat-runs-started")).toHaveText("3");
    await expect(page.getByTestId("stat-runs-completed")).toHaveText("2");
    await expect(page.getByTestId("stat-runs-failed")).toHaveText("1");
    await expect(page.getByTestId("stat-success-rate")).toHaveText("66.7 %");
    await expect(page.getByTestId("chart-started_failed-legend")).toHaveText(["model error 1"]);

    // Where the failed bar is: its bucket on the chart's time axis (the page's own query, asked again).
    const answer = (await (await page.request.get(`/api/metrics?range=1h&graph=${graph}&breakdown=label&series=started_failed`)).json()) as MetricsDashboard;
    const points = answer.series.started_failed?.lines[0]?.points ?? [];
    const bar = points.find((p) => (p.value ?? 0) > 0);
    if (!bar) throw new Error("no failed bar in the metrics answer");
    const plot = page.getByTestId("chart-started_failed-plot");
    const box = await plot.boundingBox();
    if (!box) throw new Error("the failed-runs chart is not on screen");
    // The time axis spans the grid: from its first point to the end of its last (the interval holding now).
    const from = Date.parse(answer.range.from);
    const span = points.length * answer.range.stepSeconds * 1000;
    const middle = Date.parse(bar.t) + (answer.range.stepSeconds * 1000) / 2;
    await plot.click({ position: { x: (box.width * (middle - from)) / span, y: box.height - 3 } });

    await expect(page).toHaveURL(/\/runs\?/);
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ graph, status: "failed", reason: "model_error", experiments: "1" });
    const rows = page.getByTestId("run-row");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("dashboard failing run");
    await expect(rows.first().getByTestId("failure-reason")).toHaveText("model error");
    await builder.dispose();
  });

  test("a bad value in a shared link is named, and the API refuses it with the field", async ({ page }) => {
    await page.goto("/?range=2w&version=0");
    const issues = page.getByTestId("dashboard-url-issues");
    await expect(issues).toContainText("range");
    await expect(issues).toContainText("version");
    await page.getByRole("link", { name: "Show the last 24 hours instead" }).click();
    await expect(page.getByTestId("stat-runs-started")).toBeVisible();
    const refused = await page.request.get("/api/metrics?range=2w");
    expect(refused.status()).toBe(422);
    expect(await refused.text()).toContain("range");
  });
});
