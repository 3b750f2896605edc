// Monitors as a builder meets them (issue 26 §1): a monitor on failed runs of
// a fresh graph, created on the monitors page; a run of that graph fails; the
// worker's evaluator (every 2 s here: ZAP_MONITOR_INTERVAL_SECONDS in
// playwright.config.ts) fires the alert, which the dashboard shows with its
// value against the threshold and a link to exactly the runs behind it.
// Deleting the monitor resolves the alert, and the dashboard is quiet again.
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

test.describe("monitors and alerts", () => {
  test.use({ storageState: storageStateFor("builder") });

  test("a builder's monitor on failed runs fires on the dashboard, links to the failed run, and resolves when deleted", async ({ page }) => {
    const api = page.request;
    const graph = `mon-${Date.now().toString(36)}`;
    expect((await api.post("/api/agents", { data: { name: graph } })).status()).toBe(201);
    const saved = await api.post(`/api/agents/${graph}/versions`, {
      data: { baseVersion: 1, message: "one agent", graph: { entryAgent: "solo", agents: [{ name: "solo", model: "demo/assistant", systemPrompt: "Answer." }], limits: { followUpWindowSeconds: 0 } } },
    });
    expect(saved.status(), await saved.text()).toBe(201);
    const name = `Failures of ${graph}`;

    await page.goto("/monitors");
    await page.getByRole("button", { name: "New monitor" }).click();
    const form = page.getByRole("form", { name: "New monitor" });
    await form.getByLabel("Name").fill(name);
    await form.getByLabel("Series").selectOption({ label: "Runs failed" });
    await form.getByLabel("Fires when").selectOption(">");
    await form.getByLabel("Threshold").fill("0");
    await form.getByLabel("Over the last (minutes)").fill("30");
    await form.getByLabel("Graph (optional)").fill(graph);
    await form.getByRole("button", { name: "Preview current value" }).click();
    await expect(form.getByTestId("monitor-preview"), "nothing has failed in this graph yet").toHaveText("Now: 0");
    await form.getByRole("button", { name: "Create monitor" }).click();
    await expect(page.getByTestId("alert-success")).toContainText(`${name} is created.`);
    const monitorRow = () => page.getByRole("table", { name: "Monitors" }).getByRole("row").filter({ hasText: name });
    await expect(monitorRow()).toContainText("Runs failed > 0 over 30 min");

    const started = await api.post("/api/runs", { data: { graph, task: "fail model\nmonitored failing run" } });
    expect(started.status(), await started.text()).toBe(201);
    const { runId } = (await started.json()) as { runId: string };
    await expect.poll(async () => ((await (await api.get(`/api/runs/${runId}`)).json()) as { run: { status: string } }).run.status, { timeout: 20_000 }).toBe("failed");

    await page.goto("/");
    const banner = page.getByRole("region", { name: "Firing alerts" });
    const alert = banner.getByRole("listitem").filter({ hasText: name });
    await expect(alert, "the evaluator fires within a few ticks").toBeVisible({ timeout: 20_000 });
    await expect(alert).toContainText("Runs failed: 1 > 0 over 30 min");
    await alert.getByRole("link", { name: "Runs" }).click();
    await expect(page).toHaveURL(new RegExp(`/runs\\?graph=${graph}&status=failed&from=`));
    await expect(page.getByTestId("run-row").filter({ hasText: "monitored failing run" })).toBeVisible();

    await page.goto("/monitors");
    await expect(monitorRow()).toContainText("firing");
    const history = page.getByRole("table", { name: "Alert history" }).getByRole("row").filter({ hasText: name });
    await expect(history).toContainText("firing");
    page.once("dialog", (dialog) => void dialog.accept());
    await monitorRow().getByRole("button", { name: "Delete" }).click();
    await expect(page.getByTestId("alert-success")).toContainText(`${name} is deleted.`);
    await expect(history, "deleting the monitor resolves its alert; the history keeps it").toContainText("monitor deleted");

    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("region", { name: "Firing alerts" }).getByRole("listitem").filter({ hasText: name })).toHaveCount(0);
  });
});
