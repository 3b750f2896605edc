// Issue 36 §4, the attack from outside: a viewer has the inbox open in a browser
// (its approvals feed streaming), and an admin disables them. The feed re-checks
// its caller every 5 s and ends naming why; within 10 s the page stops updating
// and tells the viewer. The viewer is made for this spec (through the admin API),
// so no shared demo account is disabled and nothing needs restoring.
import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { signInThroughForm, storageStateFor } from "./support";

test("a viewer's open inbox stops updating and says why within 10 s of an admin disabling them", async ({ browser, playwright, baseURL }) => {
  test.setTimeout(90_000);
  const admin = await playwright.request.newContext({ baseURL, storageState: storageStateFor("admin") });
  const tag = randomUUID().slice(0, 8);
  const email = `stream-viewer-${tag}@example.com`;
  const created = await admin.post("/api/users", { data: { email, name: "Stream Viewer", role: "viewer" } });
  expect(created.status(), await created.text()).toBe(201);
  const { user, oneTimePassword } = (await created.json()) as { user: { id: string }; oneTimePassword: string };

  // The viewer signs in with the one-time password and chooses their own, as a new account must.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/sign-in");
  await signInThroughForm(page, email, oneTimePassword);
  await expect(page).toHaveURL(/\/account$/);
  const password = `stream viewer passphrase ${tag}`;
  await page.getByLabel("Current password", { exact: true }).fill(oneTimePassword);
  await page.getByLabel("New password", { exact: true }).fill(password);
  await page.getByLabel("Repeat the new password").fill(password);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto("/inbox");
  const inbox = page.getByTestId("inbox");
  await expect(inbox, "the approvals feed is connected").toHaveAttribute("data-live", "stream");
  await expect(page.getByTestId("stream-ended")).toHaveCount(0);

  const disabled = await admin.post(`/api/users/${user.id}/disable`);
  expect(disabled.status(), await disabled.text()).toBe(200);

  const ended = page.getByTestId("stream-ended");
  await expect(ended, "the page says the live updates stopped, and why, within 10 s").toBeVisible({ timeout: 10_000 });
  await expect(ended.getByRole("alert")).toHaveText(/Live updates stopped: your account was disabled\. Sign in again\./);
  // Stopped: no feed, and no poll in its place (it would only be refused).
  await expect(inbox).toHaveAttribute("data-live", "ended");

  await context.close();
  await admin.dispose();
});
