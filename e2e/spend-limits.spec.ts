// Spend limits as a builder meets them (issue 39 §3): a $0 daily limit set on a
// graph from the spend limits page is reached at once; the graph's run dialog
// is then refused with the one line naming the limit, and no run starts; the
// overview's spend card shows the limit; removing it on the page clears it.
// A $0 limit needs no price, so the shared stack's prices stay as they are.
// And a run already working when its graph's limit is reached (onReached
// "ask") pauses into the inbox as a "Spend limit" request; an admin raises the
// limit and lets it go on, and it completes. That run's model is a demo model
// of its own, priced by the admin, so no other test's spend changes.
import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

/** Sets a graph's daily limit on the spend limits page (an admin's form opens on the workspace scope, a builder's on graphs). */
async function setGraphLimit(page: Page, graph: string, amountUsd: string, onReached: "ask" | "stop") {
  await page.goto("/spend-limits");
  const form = page.getByRole("form", { name: "Set a spend limit" });
  await form.getByLabel("Scope").selectOption("graph");
  await form.getByLabel("Graph").selectOption(graph);
  await form.getByLabel("Period").selectOption("day");
  await form.getByLabel("Limit in US dollars").fill(amountUsd);
  await form.getByLabel("Running runs, once reached").selectOption(onReached);
  await form.getByRole("button", { name: "Save limit" }).click();
  await expect(page.getByTestId("alert-success")).toContainText(`The daily limit of ${graph} is saved.`);
}

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

  test("a working run pauses into the inbox at its graph's limit; an admin raises the limit and lets it go on, and it completes", async ({ page, browser }) => {
    test.slow();
    const tag = Date.now().toString(36);
    const graph = `spend-run-${tag}`;
    const model = `demo/spend-${tag}`;
    const adminContext = await browser.newContext({ storageState: storageStateFor("admin") });
    const admin = await adminContext.newPage();

    // The admin prices the graph's own demo model at a dollar a token (demo models cost $0 unless priced).
    await admin.goto("/admin/prices");
    await admin.getByLabel("Model").fill(model);
    await admin.getByLabel("Input", { exact: true }).fill("1000000");
    await admin.getByLabel("Output", { exact: true }).fill("1000000");
    await admin.getByRole("button", { name: "Save price" }).click();
    await expect(admin.getByTestId("alert-success")).toContainText(`${model} costs $1000000 / $1000000 per million tokens`);

    const api = page.request;
    expect((await api.post("/api/agents", { data: { name: graph } })).status()).toBe(201);
    const saved = await api.post(`/api/agents/${graph}/versions`, {
      data: { baseVersion: 1, message: "a priced model", graph: { entryAgent: "solo", agents: [{ name: "solo", model, tools: ["calculator"], systemPrompt: "Answer." }], limits: { followUpWindowSeconds: 0 } } },
    });
    expect(saved.status(), await saved.text()).toBe(201);
    // $100 a day, pausing running runs: the start passes (nothing spent), the first call's 600 tokens pass it.
    await setGraphLimit(page, graph, "100", "ask");
    await expect(page.getByLabel(`Running runs once the daily limit of ${graph} is reached`)).toHaveValue("ask");

    // Model calls of 600 output tokens, each thinking 3.5 s (longer than the limit check's few seconds of cache), so a later call finds the limit reached.
    await page.goto(`/agents/${graph}`);
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Task").fill('think 3500\ntokens 600\nrepeat 2 tool calculator {"expression":"1+1"}\nanswer: went on past the limit');
    await dialog.getByRole("button", { name: "Start run" }).click();
    await expect(page).toHaveURL(/\/runs\//);
    await expect(page.getByTestId("run-status").first(), "the run pauses at the limit").toHaveText("awaiting approval", { timeout: 30_000 });

    // The inbox holds it as a Spend limit request naming the limit.
    await admin.goto("/inbox");
    const row = admin.getByTestId("approval-row").filter({ hasText: `graph "${graph}"` });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("Spend limit");
    const approvalId = await row.getAttribute("data-row-for");
    await row.getByRole("button").click();
    const card = admin.locator(`[data-approval-id="${approvalId}"]`);
    await expect(card).toHaveAccessibleName("spend limit reached by solo");
    await expect(card.getByRole("heading", { name: "Spend limit" })).toBeVisible();
    await expect(card.getByTestId("approval-spend-limit")).toContainText(`solo is paused: `);
    await expect(card.getByTestId("approval-spend-limit")).toContainText(`spent of the daily spend limit of graph "${graph}" ($100.00)`);

    // The admin raises the limit, then lets the run go on.
    await setGraphLimit(admin, graph, "1000000", "ask");
    await admin.goto("/inbox");
    await admin.getByTestId("approval-row").and(admin.locator(`[data-row-for="${approvalId}"]`)).getByRole("button").click();
    await card.getByRole("button", { name: "Go on (limit raised)" }).click();
    await expect(admin.getByRole("status")).toContainText("going on past a spend limit (solo): approved");
    await expect(card).toHaveCount(0);

    // The builder's run page follows it to its answer.
    await expect(page.getByTestId("run-status").first()).toHaveText("completed", { timeout: 30_000 });
    await expect(page.getByTestId("run-output")).toContainText("went on past the limit");

    await admin.goto("/spend-limits");
    await admin.getByRole("button", { name: `Remove the daily limit of ${graph}` }).click();
    await expect(admin.getByTestId("alert-success")).toContainText("The limit is removed.");
    await adminContext.close();
  });
});
