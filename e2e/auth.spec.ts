import { expect, test } from "./fixtures";
import { ROLES } from "../lib/access/roles";
import { demoUser, signInAs, signInThroughForm, storageStateFor } from "./support";

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

  test("the sign-in page says demo mode is on, with the demo sign-ins", async ({ page }) => {
    await page.goto("/sign-in");
    const note = page.getByTestId("demo-mode-note");
    await expect(note).toContainText("Demo mode: demo accounts with published passwords are enabled");
    await expect(note).toContainText(`${demoUser("admin").email} / ${demoUser("admin").password}`);
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

test.describe("sign-out", () => {
  test("ends the session: a reload and the old cookies are refused, other sessions stay", async ({ page, context, playwright, baseURL }) => {
    await signInAs(page, "viewer");
    const cookiesBeforeSignOut = await context.storageState();

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await page.goto("/inbox");
    await expect(page, "a full load of a page after sign-out goes to sign-in").toHaveURL(/\/sign-in\?callbackUrl=%2Finbox/);
    expect((await page.request.get("/api/me")).status()).toBe(401);

    // A copy of the signed-in cookies (another tab's late response, a saved jar) is worthless now.
    const oldJar = await playwright.request.newContext({ baseURL, storageState: cookiesBeforeSignOut });
    const me = await oldJar.get("/api/me");
    expect(me.status(), "the API refuses the signed-out session's cookie").toBe(401);
    expect(await me.json()).toEqual({ error: { code: "unauthenticated", message: "Sign in to continue" } });
    const inbox = await oldJar.get("/inbox", { maxRedirects: 0 });
    expect(inbox.status(), "a page refuses the signed-out session's cookie").toBe(307);
    expect(inbox.headers().location).toMatch(/\/sign-in/);
    expect(await (await oldJar.get("/api/auth/session")).json(), "Auth.js itself reports no session").toBeNull();
    await oldJar.dispose();

    // Signing out ends this session only: the same user elsewhere stays signed in.
    const otherSession = await playwright.request.newContext({ baseURL, storageState: storageStateFor("viewer") });
    expect((await otherSession.get("/api/me")).status()).toBe(200);
    await otherSession.dispose();
  });

  test("a response still in flight at sign-out does not bring the session back", async ({ page }) => {
    await signInAs(page, "viewer");
    // Hold the answer to a request sent while signed in until sign-out is done,
    // as happens to a link prefetch or a poll that is slower than the sign-out.
    let answeredWith!: (status: number) => void;
    const answered = new Promise<number>((resolve) => (answeredWith = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      "**/api/me",
      async (route) => {
        const response = await route.fetch();
        answeredWith(response.status());
        await released;
        await route.fulfill({ response });
      },
      { times: 1 },
    );
    const inFlight = page.evaluate(() => fetch("/api/me").then((r) => r.status));
    expect(await answered, "the held request was answered as signed in").toBe(200);

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    release();
    expect(await inFlight).toBe(200);

    await page.goto("/inbox");
    await expect(page, "the late answer did not sign the browser back in").toHaveURL(/\/sign-in\?callbackUrl=%2Finbox/);
    expect((await page.request.get("/api/me")).status()).toBe(401);
  });
});
