import { expect, test } from "@playwright/test";
import { ROLES } from "../lib/auth/roles";
import { demoUser, signInThroughForm, storageStateFor } from "./support";

test.describe("signed out", () => {
  test("a page redirects to sign-in and returns there after signing in", async ({ page }) => {
    await page.goto("/runs");
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fruns$/);
    const builder = demoUser("builder");
    await signInThroughForm(page, builder.email, builder.password);
    await expect(page).toHaveURL(/\/runs$/);
    await expect(page.getByRole("heading", { name: "Runs", level: 1 })).toBeVisible();
  });

  test("an API call gets 401 JSON", async ({ request }) => {
    const response = await request.get("/api/me");
    expect(response.status()).toBe(401);
    expect(await response.json()).toEqual({ error: { code: "unauthenticated", message: "Sign in to continue" } });
  });

  test("a wrong password is refused with a clear message", async ({ page }) => {
    await page.goto("/sign-in");
    await signInThroughForm(page, demoUser("admin").email, "not-the-password");
    await expect(page.getByTestId("alert-error")).toHaveText("Wrong email or password");
    await expect(page).toHaveURL(/\/sign-in/);
    const me = await page.request.get("/api/me");
    expect(me.status()).toBe(401);
  });

  test("an unknown email gets the same message", async ({ page }) => {
    await page.goto("/sign-in");
    await signInThroughForm(page, "nobody@zap.local", "whatever-password");
    await expect(page.getByTestId("alert-error")).toHaveText("Wrong email or password");
  });
});

for (const role of ROLES) {
  test.describe(`signed in as ${role}`, () => {
    test.use({ storageState: storageStateFor(role) });

    test("sees the shell with navigation, name and role", async ({ page }) => {
      await page.goto("/");
      const nav = page.getByRole("navigation", { name: "Main" });
      for (const label of ["Agents", "Runs", "Inbox"]) await expect(nav.getByRole("link", { name: label })).toBeVisible();
      await expect(nav.getByRole("link", { name: "Users" })).toHaveCount(role === "admin" ? 1 : 0);
      await expect(page.getByTestId("user-menu")).toContainText(demoUser(role).email);
      await expect(page.getByTestId("user-role")).toHaveText(role);
      const me = await page.request.get("/api/me");
      expect((await me.json()).user).toMatchObject({ email: demoUser(role).email, role });
    });
  });
}

test("sign-out ends the session", async ({ page }) => {
  await page.goto("/sign-in");
  const viewer = demoUser("viewer");
  await signInThroughForm(page, viewer.email, viewer.password);
  await expect(page.getByTestId("user-role")).toHaveText("viewer");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto("/inbox");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Finbox/);
  expect((await page.request.get("/api/me")).status()).toBe(401);
});
