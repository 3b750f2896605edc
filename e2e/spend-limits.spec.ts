// Spend limits as a builder meets them (issue 39 §3): a $0 daily limit set on a
// graph from the spend limits page is reached at once; the graph's run dialog
// is then refused with the one line naming the limit, and no run starts; the
// overview's spend card shows the limit; removing it on the page clears it.
// A $0 limit needs no price, so the shared stack's prices stay as they are.
import { expect, test } from "@playwright/test";
import { storageStateFor } from "./support";

test.describe("spend limits", () => {
  test.use({ storageState: storageStateFor("builder") });

  test("a graph's $0 daily limit refuses its next run in the browser; the overview shows it; removing it clears it", async ({ page }) => {
    const api = page.request;
    const graph = `spend-${Date.now().toString(36)}`;
    expect((await api.post("/api/agents", { data: { name: graph } })).status()).toBe(201);
    const saved = await api.post(`/api/agents/${graph}/versions`, {
      data: { baseVersion: 1, message: "one agent", graph: { entryAgent: "solo", agents: [{ name: "solo", model: "demo/assistant", systemPrompt: "Answer." }], limits: { followUpWindowSeconds: 0 } } },
    });
    expect(saved.status(), await saved.text()).toBe(201);

    await page.goto("/spend-limits");
    const form = page.getByRole("form", { name: "Set a spend limit" });
    await expect(form.getByLabel("Scope")).toHaveValue("graph");
    await form.getByLabel("Graph").selectOption(graph);
    await form.getByLabel("Period").selectOption("day");
    await form.getByLabel("Limit in US dollars").fill("0");
    await form.getByLabel("Running runs, once reached").selectOption("stop");
    await form.getByRole("button", { name: "Save limit" }).click();
    await expect(page.getByTestId("alert-success")).toContainText(`The daily limit of ${graph} is saved.`);
    // What running runs do once it is reached is kept with the limit, and shown (editable) beside it.
    await expect(page.getByLabel(`Running runs once the daily limit of ${graph} is reached`)).toHaveValue("stop");
    const limit = page.getByTestId("spend-limit").filter({ hasText: graph });
    await expect(limit).toContainText("limit reached: new runs refused");

    await page.goto(`/agents/${graph}`);
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Task").fill("answer: should not run");
    await dialog.getByRole("button", { name: "Start run" }).click();
    await expect(dialog.getByRole("alert")).toContainText(`Spend limit reached: $0 spent of the daily spend limit of graph "${graph}" ($0); new runs are refused until`);
    await expect(page).toHaveURL(new RegExp(`/agents/${graph}`));
    const runs = await api.get(`/api/runs?graph=${graph}&limit=10`);
    expect(((await runs.json()) as { runs: unknown[] }).runs, "no run started").toHaveLength(0);

    await page.goto("/");
    await expect(page.getByTestId("spend-card").getByTestId("spend-limit").filter({ hasText: graph })).toContainText("$0 of $0");

    await page.goto("/spend-limits");
    await page.getByRole("button", { name: `Remove the daily limit of ${graph}` }).click();
    await expect(page.getByTestId("alert-success")).toContainText("The limit is removed.");
    await expect(page.getByTestId("spend-limit").filter({ hasText: graph })).toHaveCount(0);
  });
});
