// Search across runs (issue 26 §4) as a user meets it: a number from a run's
// tool call is found from the runs list, the snippet marks it, and its link
// opens the run with that tool's span selected; the search saved as a view
// comes back from the views bar; the built-in "stuck or burning" view states
// its thresholds.
import { randomInt } from "node:crypto";
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

test.describe("search across runs", () => {
  test.use({ storageState: storageStateFor("builder") });

  test("finds a run by a number in its tool call, jumps to the span, and keeps the search as a view", async ({ page, playwright, baseURL }) => {
    const api = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder"), extraHTTPHeaders: { Origin: baseURL ?? "" } });
    const graph = `search-${Date.now().toString(36)}`;
    const order = String(randomInt(100_000, 999_999));
    expect((await api.post("/api/agents", { data: { name: graph } })).status()).toBe(201);
    const saved = await api.post(`/api/agents/${graph}/versions`, {
      data: { baseVersion: 1, message: "one agent", graph: { entryAgent: "clerk", agents: [{ name: "clerk", model: "demo/assistant", tools: ["calculator"] }], limits: { followUpWindowSeconds: 0 } } },
    });
    expect(saved.status(), await saved.text()).toBe(201);
    const started = await api.post("/api/runs", { data: { graph, task: `tool calculator {"expression":"${order}+1"}\nanswer: checked it` } });
    expect(started.status(), await started.text()).toBe(201);
    const { runId } = (await started.json()) as { runId: string };
    await expect
      .poll(async () => ((await (await api.get(`/api/runs/${runId}`)).json()) as { run: { status: string } }).run.status, { timeout: 20_000 })
      .toBe("completed");

    await page.goto("/runs");
    const search = page.getByRole("searchbox", { name: "Search runs" });
    await search.fill(order);
    await search.press("Enter");
    await expect(page).toHaveURL(new RegExp(`[?&]q=${order}`));
    const row = page.getByTestId("run-row").filter({ has: page.getByTestId("search-snippet") });
    await expect(row).toHaveCount(1);
    const snippet = row.getByTestId("search-snippet");
    // The number is in the call's arguments and in its result (the calculator echoes the expression): either is the best match.
    await expect(snippet).toContainText(/tool (arguments|result)/);
    await expect(snippet.locator("mark")).toHaveText(order);

    await snippet.getByRole("link", { name: "open at the span" }).click();
    await expect(page).toHaveURL(new RegExp(`/runs/${encodeURIComponent(runId)}\\?span=s\\d+$`));
    await expect(page.getByTestId("span-details")).toContainText("calculator");
    await expect(page.getByTestId("span-details")).toContainText(`${order}+1`);

    // Saved as a view, the search comes back from the views bar.
    await page.goto(`/runs?q=${order}`);
    const views = page.getByRole("navigation", { name: "Saved views" });
    await views.getByRole("button", { name: "Save view" }).click();
    await views.getByRole("textbox", { name: "View name" }).fill(`order ${order}`);
    await views.getByRole("button", { name: "Save", exact: true }).click();
    const mine = views.getByRole("link", { name: `order ${order}` });
    await expect(mine).toHaveAttribute("aria-current", "page");
    await page.goto("/runs");
    await expect(mine).not.toHaveAttribute("aria-current", "page");
    await mine.click();
    await expect(page).toHaveURL(new RegExp(`[?&]q=${order}`));
    await expect(page.getByRole("searchbox", { name: "Search runs" })).toHaveValue(order);
    await expect(page.getByTestId("search-snippet").locator("mark")).toHaveText(order);

    // The built-in view says what it looks for.
    await views.getByRole("link", { name: "stuck or burning" }).click();
    await expect(page).toHaveURL(/[?&]view=stuck/);
    await expect(views.getByTestId("view-description")).toContainText("no progress for 10 min");

    await views.getByRole("button", { name: `Delete view order ${order}` }).click();
    await expect(mine).toHaveCount(0);
  });
});
