// Schedules as a builder meets them (issue 39 §1): a schedule created on the
// schedules page with a 5-second interval fires on its Temporal Schedule, and
// its run is listed under the schedule's filter and names it in its header;
// pausing stops the firings; switched to hourly and resumed, a backfill of the
// past three hours starts the three past runs at once. A viewer sees the
// schedule without controls. An agent's Triggers tab lists its schedules.
import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

/** How many runs the schedule started, through the API the list reads. */
async function runCount(page: Page, scheduleId: string): Promise<number> {
  const response = await page.request.get(`/api/runs?scheduleId=${scheduleId}&limit=100`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { runs: unknown[] }).runs.length;
}

test.describe("schedules", () => {
  test.use({ storageState: storageStateFor("builder") });

  test("a builder's 5-second schedule starts a linked run; pause stops it; a backfill of three past hours starts three runs", async ({ page, browser }) => {
    // The pause is watched for 15 s of real time (three intervals), beside the firings themselves.
    test.setTimeout(120_000);
    const api = page.request;
    const graph = `sch-${Date.now().toString(36)}`;
    expect((await api.post("/api/agents", { data: { name: graph } })).status()).toBe(201);
    const saved = await api.post(`/api/agents/${graph}/versions`, {
      data: { baseVersion: 1, message: "one agent", graph: { entryAgent: "solo", agents: [{ name: "solo", model: "demo/assistant", systemPrompt: "Answer." }], limits: { followUpWindowSeconds: 0 } } },
    });
    expect(saved.status(), await saved.text()).toBe(201);
    const name = `Every five seconds ${graph}`;

    await page.goto("/schedules");
    await page.getByRole("button", { name: "New schedule" }).click();
    const form = page.getByRole("form", { name: "New schedule" });
    await form.getByLabel("Name").fill(name);
    await form.getByLabel("Graph").selectOption(graph);
    await form.getByLabel("Fires").selectOption("interval");
    await form.getByLabel("Every (seconds)").fill("5");
    await form.getByLabel("Task").fill("answer: scheduled check done");
    await form.getByRole("button", { name: "Create schedule" }).click();
    await expect(page.getByTestId("alert-success")).toContainText(`${name} is created.`);
    const row = page.getByRole("table", { name: "Schedules" }).getByRole("row").filter({ hasText: name });
    await expect(row).toContainText("every 5 s");
    const scheduleId = (await row.getAttribute("id")) ?? "";
    expect(scheduleId).toMatch(/^sch_/);

    await expect.poll(() => runCount(page, scheduleId), { timeout: 30_000, message: "the schedule fires within a few seconds" }).toBeGreaterThan(0);
    await row.getByRole("link", { name: `Runs of ${name}` }).click();
    await expect(page).toHaveURL(new RegExp(`/runs\\?scheduleId=${scheduleId}`));
    await expect(page.getByLabel("Schedule")).toHaveValue(scheduleId);
    const runRow = page.getByTestId("run-row").filter({ hasText: "scheduled check done" }).first();
    await expect(runRow).toBeVisible();
    await runRow.getByRole("link", { name: graph, exact: true }).click();
    await expect(page.getByTestId("run-schedule")).toContainText(`Started by the schedule ${name}`);

    await page.goto("/schedules");
    await row.getByRole("button", { name: "Pause" }).click();
    await expect(page.getByTestId("alert-success")).toContainText(`${name} is paused.`);
    await expect(row.getByTestId("schedule-paused")).toContainText("paused by a person");
    await expect(row.getByTestId("schedule-next")).toHaveText("—");
    // A firing already under way when the pause landed may still start; then the count holds for two intervals and more.
    const settledAt = Date.now() + 3_000;
    let before = -1;
    await expect
      .poll(
        async () => {
          const count = await runCount(page, scheduleId);
          if (Date.now() < settledAt) return "settling";
          if (before < 0) before = count;
          return Date.now() < settledAt + 12_000 ? "watching" : count === before ? "no new run" : `${count - before} new`;
        },
        { timeout: 30_000, intervals: [1_000] },
      )
      .toBe("no new run");

    await row.getByRole("button", { name: "Edit" }).click();
    const edit = page.getByRole("form", { name: `Edit ${name}` });
    await edit.getByLabel("Every (seconds)").fill("3600");
    await edit.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("alert-success")).toContainText(`${name} is saved.`);
    await expect(row).toContainText("every 1 h");
    await row.getByRole("button", { name: "Resume" }).click();
    await expect(page.getByTestId("alert-success")).toContainText(`${name} is resumed.`);

    // The range in the browser's own time, around the last three hour marks (an hourly interval fires on the hour):
    // three firings whatever the minute the test runs at.
    const [from, to] = await page.evaluate(() => {
      const local = (ms: number) => {
        const d = new Date(ms);
        const pad = (n: number) => String(n).padStart(2, "0");
        return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
      };
      const lastMark = Math.floor((Date.now() - 300_000) / 3_600_000) * 3_600_000;
      return [local(lastMark - 2 * 3_600_000 - 60_000), local(lastMark + 60_000)];
    });
    const startedBefore = await runCount(page, scheduleId);
    await row.getByRole("button", { name: "Backfill" }).click();
    const backfill = row.getByRole("form", { name: `Backfill ${name}` });
    await backfill.getByLabel("Backfill from").fill(from ?? "");
    await backfill.getByLabel("Backfill to").fill(to ?? "");
    await backfill.getByRole("button", { name: "Start past runs" }).click();
    await expect(page.getByTestId("alert-success")).toContainText(`${name}: 3 past firings started.`);
    await expect.poll(() => runCount(page, scheduleId), { timeout: 30_000, message: "the three past firings start their runs" }).toBe(startedBefore + 3);

    const viewer = await browser.newContext({ storageState: storageStateFor("viewer") });
    const viewerPage = await viewer.newPage();
    await viewerPage.goto("/schedules");
    const seen = viewerPage.getByRole("table", { name: "Schedules" }).getByRole("row").filter({ hasText: name });
    await expect(seen).toContainText("every 1 h");
    await expect(viewerPage.getByRole("button", { name: "New schedule" }), "a viewer gets no controls").toHaveCount(0);
    await expect(seen.getByRole("button")).toHaveCount(0);
    await viewer.close();

    page.once("dialog", (dialog) => void dialog.accept());
    await row.getByRole("button", { name: "Delete" }).click();
    await expect(page.getByTestId("alert-success")).toContainText(`${name} is deleted.`);
  });

  test("an agent's Triggers tab lists the schedule made for it; New schedule opens the form with the graph chosen; a viewer sees the list without it", async ({ page, browser }) => {
    const api = page.request;
    const graph = `trg-${Date.now().toString(36)}`;
    expect((await api.post("/api/agents", { data: { name: graph } })).status()).toBe(201);
    const saved = await api.post(`/api/agents/${graph}/versions`, {
      data: { baseVersion: 1, message: "one agent", graph: { entryAgent: "solo", agents: [{ name: "solo", model: "demo/assistant", systemPrompt: "Answer." }], limits: { followUpWindowSeconds: 0 } } },
    });
    expect(saved.status(), await saved.text()).toBe(201);
    const name = `Nightly ${graph}`;
    const created = await api.post("/api/schedules", { data: { name, graph, cron: "0 3 * * *", task: "answer: nightly check" } });
    expect(created.status(), await created.text()).toBe(201);
    const scheduleId = ((await created.json()) as { schedule: { id: string } }).schedule.id;

    await page.goto(`/agents/${graph}`);
    await page.getByTestId("designer-toolbar").getByRole("link", { name: "Triggers" }).click();
    await expect(page).toHaveURL(new RegExp(`/agents/${graph}/triggers$`));
    await expect(page.getByRole("navigation", { name: `${graph} views` }).getByRole("link", { name: "Triggers" })).toHaveAttribute("aria-current", "page");
    const row = page.getByRole("table", { name: `Schedules of ${graph}` }).getByTestId(`trigger-schedule-${scheduleId}`);
    await expect(row).toContainText(name);
    await expect(row).toContainText("cron 0 3 * * * (UTC)");
    await expect(row).toContainText("active");
    await expect(row).toContainText("not fired yet");
    await expect(page.getByText(`No inbound webhook starts ${graph} yet.`)).toBeVisible();

    await page.getByRole("link", { name: "New schedule" }).click();
    await expect(page).toHaveURL(new RegExp(`/schedules\\?graph=${graph}&new=1$`));
    await expect(page.getByTestId("graph-filter-note")).toContainText(`Showing the schedules of ${graph}`);
    await expect(page.getByRole("form", { name: "New schedule" }).getByLabel("Graph")).toHaveValue(graph);
    await expect(page.getByRole("table", { name: "Schedules" }).getByRole("row").filter({ hasText: name }), "the graph's schedules only, its own among them").toHaveCount(1);

    const viewer = await browser.newContext({ storageState: storageStateFor("viewer") });
    const viewerPage = await viewer.newPage();
    await viewerPage.goto(`/agents/${graph}/triggers`);
    await expect(viewerPage.getByTestId(`trigger-schedule-${scheduleId}`)).toContainText(name);
    await expect(viewerPage.getByRole("link", { name: "New schedule" }), "a viewer gets no New schedule").toHaveCount(0);
    await expect(viewerPage.getByRole("link", { name: "New webhook" })).toHaveCount(0);
    await viewer.close();

    expect((await api.delete(`/api/schedules/${scheduleId}`)).status()).toBe(200);
  });

  test("the overview splits a graph's runs by how they started: one by a person, one by its schedule", async ({ page }) => {
    const api = page.request;
    const graph = `split-${Date.now().toString(36)}`;
    expect((await api.post("/api/agents", { data: { name: graph } })).status()).toBe(201);
    const saved = await api.post(`/api/agents/${graph}/versions`, {
      data: { baseVersion: 1, message: "one agent", graph: { entryAgent: "solo", agents: [{ name: "solo", model: "demo/assistant", systemPrompt: "Answer." }], limits: { followUpWindowSeconds: 0 } } },
    });
    expect(saved.status(), await saved.text()).toBe(201);
    expect((await api.post("/api/runs", { data: { graph, task: "answer: by hand" } })).status()).toBe(201);
    const created = await api.post("/api/schedules", { data: { name: `Hourly ${graph}`, graph, intervalSeconds: 3600, task: "answer: scheduled" } });
    expect(created.status(), await created.text()).toBe(201);
    const scheduleId = ((await created.json()) as { schedule: { id: string } }).schedule.id;
    expect((await api.post(`/api/schedules/${scheduleId}/trigger`)).status()).toBe(200);
    await expect.poll(() => runCount(page, scheduleId), { timeout: 30_000, message: "run now starts the schedule's run" }).toBe(1);
    // Both runs ended: the tiles count a run once its ledger's first events are derived, the split from its row at once.
    await expect
      .poll(async () => ((await (await api.get(`/api/runs?graph=${graph}&limit=10`)).json()) as { runs: { status: string }[] }).runs.map((run) => run.status).join(","), { timeout: 30_000 })
      .toBe("completed,completed");

    await page.goto(`/?range=1h&graph=${graph}`);
    const split = page.getByTestId("runs-by-trigger");
    await expect(split.getByTestId("runs-by-trigger-manual")).toHaveText("1");
    await expect(split.getByTestId("runs-by-trigger-schedule")).toHaveText("1");
    await expect(split.getByTestId("runs-by-trigger-webhook")).toHaveText("0");
    await expect(page.getByTestId("stat-runs-started"), "the parts add up to the runs started").toHaveText("2");
    expect((await api.delete(`/api/schedules/${scheduleId}`)).status()).toBe(200);
  });
});
