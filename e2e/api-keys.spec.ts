// API keys through the browser (issue 23 §1): a builder creates a key on the
// account page, copies its token once, a program uses it with nothing but the
// Authorization header, the builder revokes it and the program is refused; an
// admin manages service keys and sees every owner's keys.
import { type APIRequestContext, type PlaywrightWorkerArgs } from "@playwright/test";
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

/** A request context as a program has it: no cookie, no Origin, only the key (options given here replace the config's defaults). */
function withKey(playwright: PlaywrightWorkerArgs["playwright"], baseURL: string | undefined, token: string): Promise<APIRequestContext> {
  return playwright.request.newContext({ baseURL, storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { Authorization: `Bearer ${token}` } });
}

test.describe("as a builder", () => {
  test.use({ storageState: storageStateFor("builder") });

  test("creates a personal key, copies the token shown once, a program uses it with no cookie, the builder revokes it and the program gets 401", async ({ page, playwright, baseURL }) => {
    const name = `ci-${Date.now()}`;
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await page.goto("/account");
    await expect(page.getByRole("heading", { name: "API keys" })).toBeVisible();
    await page.getByLabel("Key name").fill(name);
    await page.getByLabel("Key role").selectOption("builder");
    await page.getByLabel("Expires in (days)").fill("7");
    await page.getByRole("button", { name: "Create key" }).click();

    const created = page.getByTestId("api-key-created");
    await expect(created).toContainText("it will not be shown again");
    await created.getByRole("button", { name: "Copy" }).click();
    await expect(page.getByTestId("api-key-copied")).toBeVisible();
    const token = await page.evaluate(() => navigator.clipboard.readText());
    expect(token, "the clipboard holds the token").toMatch(/^zap_[A-Za-z0-9_-]+$/);
    await expect(page.getByTestId("api-key-token"), "the panel shows what was copied").toHaveText(token);
    await expect(page.getByTestId(`api-key-status-${name}`)).toHaveText("active");
    await expect(page.getByTestId(`api-key-last-used-${name}`)).toHaveText("never used");

    await created.getByRole("button", { name: "Done" }).click();
    await expect(page.getByTestId("api-key-created")).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId(`api-key-row-${name}`)).toBeVisible();
    expect(await page.content(), "after Done and a reload the token is nowhere on the page").not.toContain(token);
    await expect(page.getByTestId(`api-key-row-${name}`), "the list shows the prefix").toContainText(token.slice(0, 16));

    const program = await withKey(playwright, baseURL, token);
    const list = await program.get("/api/runs");
    expect(list.status(), "a key alone reads").toBe(200);
    const started = await program.post("/api/runs", { data: { graph: "treasury", task: "answer: hi" } });
    expect(started.status(), `a key alone starts a run (no cookie, no Origin): ${await started.text()}`).toBe(201);
    const { runId } = (await started.json()) as { runId: string };
    await expect.poll(async () => (await (await program.get(`/api/runs/${runId}`)).json()).run.output, { timeout: 20_000, message: "the key's run completes" }).toBe("hi");

    await page.reload();
    await expect(page.getByTestId(`api-key-last-used-${name}`), "the list shows when it was last used").toHaveText(/^\w{3} \d{1,2}, \d{4}, \d{2}:\d{2}:\d{2}$/);

    await page.getByRole("button", { name: `Revoke ${name}` }).click();
    await expect(page.getByTestId(`api-key-status-${name}`), "nothing happens before the confirmation").toHaveText("active");
    await page.getByRole("button", { name: `Confirm revoking ${name}` }).click();
    await expect(page.getByTestId("alert-success")).toHaveText(`“${name}” was revoked; programs using it now get 401.`);
    await expect(page.getByTestId(`api-key-status-${name}`)).toHaveText("revoked");
    await expect(page.getByRole("button", { name: `Revoke ${name}` }), "a revoked key has no revoke button").toHaveCount(0);

    const refused = await program.get("/api/runs");
    expect(refused.status(), "a revoked key is refused at once").toBe(401);
    expect((await refused.json()).error.message).toMatch(/^API key refused: this key was revoked at \d{4}-/);
    await program.dispose();
  });

  test("is offered only the roles within their own for a key", async ({ page }) => {
    await page.goto("/account");
    await expect(page.getByLabel("Key role").locator("option")).toHaveText(["viewer", "builder"]);
  });
});

test.describe("as an admin", () => {
  test.use({ storageState: storageStateFor("admin") });

  test("creates a service key, sees every owner's keys (a builder's revoked one too) and revokes the service key", async ({ page, playwright, baseURL }) => {
    // The builder's key, made and revoked through the API with the builder's session.
    const builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder") });
    const personal = `builder-key-${Date.now()}`;
    const made = await builder.post("/api/api-keys", { data: { name: personal, role: "viewer" } });
    expect(made.status(), await made.text()).toBe(201);
    const { key } = (await made.json()) as { key: { id: string } };
    expect((await builder.delete(`/api/api-keys/${key.id}`)).status()).toBe(200);
    await builder.dispose();

    const service = `service-${Date.now()}`;
    await page.goto("/account");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API keys" }).click();
    await expect(page).toHaveURL(/\/admin\/api-keys$/);
    await expect(page.getByTestId(`api-key-owner-${personal}`)).toHaveText("builder@zap.local");
    await expect(page.getByTestId(`api-key-status-${personal}`)).toHaveText("revoked");

    await expect(page.getByLabel("Key role").locator("option")).toHaveText(["viewer", "builder", "approver", "admin"]);
    await page.getByLabel("Key name").fill(service);
    await page.getByRole("button", { name: "Create service key" }).click();
    const token = (await page.getByTestId("api-key-token").textContent()) ?? "";
    expect(token).toMatch(/^zap_/);
    await expect(page.getByTestId(`api-key-row-${service}`)).toContainText("service");
    await expect(page.getByTestId(`api-key-owner-${service}`)).toHaveText("admin@zap.local");
    await page.getByRole("button", { name: "Done" }).click();

    const program = await withKey(playwright, baseURL, token);
    expect((await program.get("/api/runs")).status(), "the viewer service key reads").toBe(200);
    expect((await program.post("/api/runs", { data: { graph: "treasury", task: "answer: hi" } })).status(), "and launches nothing: its role is viewer").toBe(403);

    await page.getByRole("button", { name: `Revoke ${service}` }).click();
    await page.getByRole("button", { name: `Confirm revoking ${service}` }).click();
    await expect(page.getByTestId(`api-key-status-${service}`)).toHaveText("revoked");
    expect((await program.get("/api/runs")).status()).toBe(401);
    await program.dispose();
  });
});

test.describe("as a viewer", () => {
  test.use({ storageState: storageStateFor("viewer") });

  test("gets the 403 page for the admin's API keys", async ({ page }) => {
    const response = await page.goto("/admin/api-keys");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Your role cannot open this page" })).toBeVisible();
  });
});
