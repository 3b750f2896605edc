import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

test("health says only whether it is healthy without a session", async ({ request }) => {
  const response = await request.get("/api/health");
  expect(response.status()).toBe(200);
  // Nothing about the deployment (namespace, task queue, export counters) to someone who has not signed in (issue 36 §1).
  expect(await response.json()).toEqual({ status: "ok" });
});

test.describe("health for a signed-in reader", () => {
  test.use({ storageState: storageStateFor("viewer") });

  test("reports database and Temporal ok, the task queue's pollers and the derive lag", async ({ request }) => {
    const response = await request.get("/api/health");
    expect(response.status()).toBe(200);
    const report = await response.json();
    expect(report).toMatchObject({ status: "ok", database: { ok: true, provider: "sqlite" }, temporal: { ok: true }, workers: { taskQueue: "zap-e2e" }, derived: { queued: expect.any(Number), lagMs: expect.any(Number) } });
    // The live worker shows up as a poller of the task queue.
    await expect.poll(async () => (await (await request.get("/api/health")).json()).workers.pollers, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
  });
});

test.describe("dashboard", () => {
  test.use({ storageState: storageStateFor("viewer") });

  test("overview shows system status and a working Temporal Web UI link", async ({ page, request }) => {
    await page.goto("/");
    const status = page.getByTestId("system-status");
    await expect(status).toContainText("Database (sqlite)");
    await expect(status.getByText(/^ok · \d+ ms$/)).toHaveCount(2);
    const href = await page.getByRole("link", { name: "Open ↗" }).getAttribute("href");
    expect(href).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const ui = await request.get(href!);
    expect(ui.status()).toBe(200);
  });

  test("each section has an empty state that says what to do next", async ({ page }) => {
    const sections = [
      { link: "Inbox", empty: "Nothing waiting for approval" },
    ];
    await page.goto("/");
    for (const section of sections) {
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: section.link }).click();
      await expect(page.getByRole("heading", { name: section.link, level: 1 })).toBeVisible();
      await expect(page.getByRole("heading", { name: section.empty })).toBeVisible();
      await expect(page.getByRole("link", { name: section.link })).toHaveAttribute("aria-current", "page");
    }
  });
});
