import { request as playwrightRequest, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

/** Clicks the smoke button and captures the server-action request the browser sends. */
async function runSmokeAndCapture(page: Page, name: string) {
  await page.goto("/");
  await page.getByLabel("Name to greet").fill(name);
  const actionRequest = page.waitForRequest((r) => r.method() === "POST" && Boolean(r.headers()["next-action"]));
  await page.getByRole("button", { name: "Run smoke workflow" }).click();
  const captured = await actionRequest;
  return { actionId: captured.headers()["next-action"] ?? "", body: captured.postData() ?? "" };
}

async function replayAction(role: "viewer" | "builder", baseURL: string, actionId: string, body: string): Promise<string> {
  const context = await playwrightRequest.newContext({ baseURL, storageState: storageStateFor(role) });
  try {
    const response = await context.post("/", {
      headers: { "next-action": actionId, accept: "text/x-component", "content-type": "text/plain;charset=UTF-8" },
      data: body,
    });
    expect(response.status()).toBe(200);
    return await response.text();
  } finally {
    await context.dispose();
  }
}

test.describe("smoke workflow as a builder", () => {
  test.use({ storageState: storageStateFor("builder") });

  test("runs through a server action, Temporal and the worker, and shows the result", async ({ page }) => {
    await runSmokeAndCapture(page, "Playwright");
    const result = page.getByTestId("smoke-result");
    await expect(result).toContainText("Hello, Playwright!");
    await expect(result).toContainText(/found \d+ users in the database/);
    await expect(result).toContainText(/smoke-[0-9a-f-]{36}/);
  });

  test("rejects invalid input with the field's message", async ({ page }) => {
    await page.goto("/");
    await page.getByLabel("Name to greet").fill("   ");
    await page.getByRole("button", { name: "Run smoke workflow" }).click();
    await expect(page.getByTestId("alert-error")).toHaveText("Enter a name");
  });
});

test.describe("smoke workflow as a viewer", () => {
  test.use({ storageState: storageStateFor("viewer") });

  test("has no button, and says which role is needed", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByTestId("smoke-not-allowed")).toContainText("builder or admin");
    await expect(page.getByRole("button", { name: "Run smoke workflow" })).toHaveCount(0);
  });

  test("is refused by the server action itself", async ({ browser, baseURL }) => {
    // Capture a genuine action call from a builder's page, then replay it with
    // each role's session: the builder's replay runs, the viewer's is refused.
    const builderContext = await browser.newContext({ storageState: storageStateFor("builder") });
    const builderPage = await builderContext.newPage();
    const { actionId, body } = await runSmokeAndCapture(builderPage, "Replay");
    await builderContext.close();
    expect(actionId).not.toBe("");

    const asBuilder = await replayAction("builder", baseURL!, actionId, body);
    expect(asBuilder).toContain("Hello, Replay!");

    const asViewer = await replayAction("viewer", baseURL!, actionId, body);
    expect(asViewer).toContain('"code":"forbidden"');
    expect(asViewer).not.toContain("Hello, Replay!");
  });
});
