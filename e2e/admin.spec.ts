import { randomUUID } from "node:crypto";
import { expect, stackDb, test } from "./fixtures";
import { writeLedgerGroup } from "../lib/run-ledger/write";
import { signInThroughForm, storageStateFor } from "./support";

test.describe("as an admin", () => {
  test.use({ storageState: storageStateFor("admin") });

  // The demo users are shared by every spec: the role changed here is a user of this test's own.
  test("lists users and changes a role", async ({ page, ownUser }) => {
    const { email } = await ownUser("approver");
    await page.goto("/admin/users");
    await expect(page.getByRole("heading", { name: "Users" })).toBeVisible();
    for (const demo of ["viewer@zap.local", "builder@zap.local", "approver@zap.local", "admin@zap.local", email]) {
      await expect(page.getByTestId(`user-row-${demo}`)).toBeVisible();
    }
    const select = page.getByLabel(`Role of ${email}`);
    await expect(select).toHaveValue("approver");
    await select.selectOption("builder");
    await expect(page.getByTestId("alert-success")).toHaveText(`${email} is now builder.`);
    await page.reload();
    await expect(page.getByLabel(`Role of ${email}`)).toHaveValue("builder");
  });

  // demoRoles: were the refusal broken, the teardown would give admin@zap.local its role back for the specs after.
  test("cannot demote the last admin", async ({ page, demoRoles }) => {
    void demoRoles;
    await page.goto("/admin/users");
    await page.getByLabel("Role of admin@zap.local").selectOption("viewer");
    await expect(page.getByTestId("alert-error")).toHaveText("This is the last admin; make someone else admin first");
  });

  test("creates a user: the one-time password signs them in once, they must choose their own; disabling ends their session", async ({ page, browser, baseURL }) => {
    const email = `newcomer-${Date.now()}@example.com`;
    await page.goto("/admin/users");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Name").fill("New Comer");
    await page.getByLabel("Role", { exact: true }).selectOption("builder");
    await page.getByRole("button", { name: "Add user" }).click();
    await expect(page.getByTestId("alert-success")).toHaveText(`${email} was added.`);
    const oneTimePassword = (await page.getByTestId("one-time-password").textContent()) ?? "";
    expect(oneTimePassword).toMatch(/^[a-z2-9]{6}(-[a-z2-9]{6}){3}$/);
    await expect(page.getByTestId(`user-status-${email}`)).toHaveText("active");

    // A context of its own, signed out (Playwright would otherwise give it this test's admin storage state).
    const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
    const newcomer = await context.newPage();
    await newcomer.goto("/sign-in");
    await signInThroughForm(newcomer, email, oneTimePassword);
    await expect(newcomer, "a one-time password leads to the account page").toHaveURL(/\/account$/);
    await newcomer.goto("/runs");
    await expect(newcomer, "every page sends them back until they choose a password").toHaveURL(/\/account$/);
    await newcomer.getByLabel("Current password", { exact: true }).fill(oneTimePassword);
    await newcomer.getByLabel("New password", { exact: true }).fill("short");
    await newcomer.getByLabel("Repeat the new password").fill("short");
    await newcomer.getByRole("button", { name: "Change password" }).click();
    await expect(newcomer, "the browser refuses a too-short password before sending it").toHaveURL(/\/account$/);
    await newcomer.getByLabel("New password", { exact: true }).fill(email);
    await newcomer.getByLabel("Repeat the new password").fill(email);
    await newcomer.getByRole("button", { name: "Change password" }).click();
    await expect(newcomer.getByTestId("alert-error")).toHaveText("The new password must not be your email address");
    await newcomer.getByLabel("New password", { exact: true }).fill("a long passphrase of mine");
    await newcomer.getByLabel("Repeat the new password").fill("a long passphrase of mine");
    await newcomer.getByRole("button", { name: "Change password" }).click();
    await expect(newcomer, "once changed, they go on to the dashboard").toHaveURL(/\/$/);
    expect((await newcomer.request.get("/api/me")).status(), "their session continues after the change").toBe(200);
    await newcomer.goto("/runs");
    await expect(newcomer.getByRole("heading", { name: "Runs", level: 1 })).toBeVisible();

    await page.reload();
    await page.getByRole("button", { name: `Disable ${email}` }).click();
    await expect(page.getByTestId("alert-success")).toHaveText(`${email} is disabled; their sessions have ended.`);
    await expect(page.getByTestId(`user-status-${email}`)).toHaveText("disabled");
    expect((await newcomer.request.get("/api/me")).status(), "their API calls are refused at once").toBe(401);
    await newcomer.goto("/runs");
    await expect(newcomer, "their pages go to sign-in").toHaveURL(/\/sign-in/);
    await signInThroughForm(newcomer, email, "a long passphrase of mine");
    await expect(newcomer.getByTestId("alert-error"), "a disabled account cannot sign in").toHaveText("Wrong email or password");
    await context.close();
  });

  test("a sign-in block: ten wrong passwords block the account's address, the admin sees it on the users page and lifts it (audited)", async ({ page, browser, baseURL }) => {
    test.slow(); // eleven sign-ins through the form, one after the other
    const email = `blocked-${Date.now()}@example.com`;
    await page.goto("/admin/users");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Name").fill("Blocked Owner");
    await page.getByRole("button", { name: "Add user" }).click();
    await expect(page.getByTestId("alert-success")).toHaveText(`${email} was added.`);
    const oneTimePassword = (await page.getByTestId("one-time-password").textContent()) ?? "";

    const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
    const owner = await context.newPage();
    await owner.goto("/sign-in");
    // Each attempt is awaited (the form's server action answers its POST) before the next: the alert alone would not say a new one arrived.
    const submit = async (password: string) => {
      const answered = owner.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/sign-in");
      await signInThroughForm(owner, email, password);
      await answered;
      await expect(owner.getByRole("button", { name: "Sign in", exact: true })).toBeEnabled();
    };
    for (let i = 0; i < 10; i++) {
      await submit(`not-it-${i}`);
      await expect(owner.getByTestId("alert-error")).toHaveText("Wrong email or password");
    }
    await submit(oneTimePassword);
    await expect(owner.getByTestId("alert-error"), "blocked from here, the right password too").toHaveText(/^Too many attempts; try again in \d+ minutes?$/);

    await page.reload();
    await expect(page.getByTestId(`sign-in-block-${email}`)).toContainText("Sign-in blocked");
    await page.getByRole("button", { name: `Lift the sign-in block of ${email}` }).click();
    await expect(page.getByTestId("alert-success")).toHaveText(`${email}'s sign-in block was lifted.`);
    await expect(page.getByTestId(`sign-in-block-${email}`)).toHaveCount(0);

    await signInThroughForm(owner, email, oneTimePassword);
    await expect(owner, "lifted: the owner signs in").toHaveURL(/\/account$/);
    await context.close();
  });

  // Issue 39 §3: a run of a model without a price shows "unpriced"; the admin prices the model from before the run
  // and the run's cost follows. The model is this test's own, so no other spec's figures change.
  test("prices a model and the run page's cost follows", async ({ page }) => {
    const tag = randomUUID().slice(0, 8);
    const model = `acme/priced-${tag}`;
    const runId = `priced-${tag}`;
    const started = Date.now() - 10 * 60_000;
    const at = (ms: number) => new Date(started + ms).toISOString();
    const span = { startedAt: at(0), endedAt: at(2_000), status: "ok" as const };
    const db = stackDb();
    try {
      await writeLedgerGroup(db, [
        {
          run: { runId, rootRunId: runId, parentRunId: null, agentName: "main", task: `priced run ${tag}`, context: {}, startedBy: "admin@zap.local", graphName: null, agentVersionId: null },
          summary: { status: "completed", iteration: 1, usage: { inputTokens: 1_000_000, outputTokens: 0 }, pendingApprovals: 0, lastEventSeq: 1, messageCount: 0, generation: 0, output: "done", error: null, startedAt: at(0), endedAt: at(2_000), routedTo: null },
          events: [{ type: "run_started", agentName: "main", task: `priced run ${tag}`, depth: 0, seq: 1, at: at(0) }],
          spans: [
            { id: "s1", parentId: null, kind: "run", name: "main", ...span },
            { id: "s2", parentId: "s1", kind: "inference", name: model, ...span, tokens: { inputTokens: 1_000_000, outputTokens: 0 } },
          ],
          messages: [],
          approvals: [],
        },
      ]);
    } finally {
      await db.$disconnect();
    }
    await page.goto(`/runs/${runId}`);
    await expect(page.getByTestId("usage-self")).toHaveText("1,000,000 tok · unpriced");

    await page.goto("/admin/prices");
    await page.getByLabel("Model").fill(model);
    // An hour before the run, in the browser's local time (a datetime-local field).
    const from = new Date(started - 60 * 60_000);
    const pad = (n: number) => String(n).padStart(2, "0");
    await page.getByLabel("Effective from (blank: now)").fill(`${from.getFullYear()}-${pad(from.getMonth() + 1)}-${pad(from.getDate())}T${pad(from.getHours())}:${pad(from.getMinutes())}:00`);
    await page.getByLabel("Input", { exact: true }).fill("3");
    await page.getByLabel("Output", { exact: true }).fill("15");
    await page.getByRole("button", { name: "Save price" }).click();
    await expect(page.getByTestId("alert-success")).toContainText(`${model} costs $3 / $15 per million tokens`);
    await expect(page.locator(`[data-testid="price-row"][data-model="${model}"]`)).toHaveCount(1);

    await page.goto(`/runs/${runId}`);
    await expect(page.getByTestId("usage-self")).toHaveText("1,000,000 tok · $3.00");
  });

  // Issue 39 §2: approval channels set on their page. Only the SMTP URL and password: with no sender, email stays
  // off, so no other spec's approval is mailed; the settings are cleared before (a rerun on the same data) and after.
  test("saves the approval channels' SMTP settings: the password shows only as set, a bad URL is refused naming the field", async ({ page }) => {
    const password = `e2e-password-${randomUUID()}`;
    const clear = async () => expect((await page.request.patch("/api/approval-channels", { data: { smtpUrl: null, smtpPassword: null } })).status()).toBe(200);
    await clear();
    await page.goto("/admin/approval-channels");
    await expect(page.getByRole("heading", { name: "Approval channels", level: 1 })).toBeVisible();
    const form = page.getByRole("form", { name: "Email settings" });
    await form.getByLabel("SMTP URL").fill("mail.example.com:587");
    await form.getByRole("button", { name: "Save email settings" }).click();
    await expect(page.getByTestId("alert-error")).toHaveText("SMTP URL: expected an smtp:// or smtps:// URL, e.g. smtp://user@mail.example.com:587");
    await expect(page.getByTestId("field-status-smtpUrl")).toHaveText("not set");

    await form.getByLabel("SMTP URL").fill("smtp://approvals@mail.example.com:587");
    await form.getByLabel("SMTP password", { exact: true }).fill(password);
    await form.getByRole("button", { name: "Save email settings" }).click();
    await expect(page.getByTestId("alert-success")).toContainText("Email settings saved: SMTP URL, SMTP password changed.");
    await expect(page.getByTestId("field-status-smtpPassword")).toHaveText("set");
    await expect(form.getByLabel("SMTP password", { exact: true }), "a secret is never put back in the page").toHaveValue("");

    await page.reload();
    await expect(page.getByLabel("SMTP URL")).toHaveValue("smtp://approvals@mail.example.com:587");
    await expect(page.getByTestId("field-status-smtpPassword")).toHaveText("set");
    await expect(page.getByText("off: needs Sender (From)")).toBeVisible();
    expect(await page.content(), "the password is nowhere in the page").not.toContain(password);

    await clear();
  });

  test("users API validates input with precise errors", async ({ request }) => {
    const list = await request.get("/api/users");
    expect(list.status()).toBe(200);
    const { users } = (await list.json()) as { users: { id: string; email: string }[] };
    const viewer = users.find((u) => u.email === "viewer@zap.local");
    expect(viewer).toBeDefined();
    expect(JSON.stringify(users)).not.toContain("passwordHash");

    const badRole = await request.patch(`/api/users/${viewer!.id}/role`, { data: { role: "root" } });
    expect(badRole.status()).toBe(422);
    const body = await badRole.json();
    expect(body.error.code).toBe("validation_failed");
    expect(body.error.issues[0].path).toBe("role");

    const badJson = await request.patch(`/api/users/${viewer!.id}/role`, { data: Buffer.from("{not json"), headers: { "content-type": "application/json" } });
    expect(badJson.status()).toBe(400);
    expect((await badJson.json()).error.message).toBe("The request body is not valid JSON");

    const missing = await request.patch("/api/users/does-not-exist/role", { data: { role: "viewer" } });
    expect(missing.status()).toBe(404);
    expect((await missing.json()).error.message).toBe('There is no user with id "does-not-exist"');
  });
});

test.describe("wrong roles", () => {
  test.describe("viewer", () => {
    test.use({ storageState: storageStateFor("viewer") });

    test("gets a 403 page for user management", async ({ page }) => {
      const response = await page.goto("/admin/users");
      expect(response?.status()).toBe(403);
      await expect(page.getByRole("heading", { name: "Your role cannot open this page" })).toBeVisible();
    });

    test("gets 403 JSON from the users API", async ({ request }) => {
      const response = await request.get("/api/users");
      expect(response.status()).toBe(403);
      expect((await response.json()).error.code).toBe("forbidden");
    });
  });

  test.describe("builder", () => {
    test.use({ storageState: storageStateFor("builder") });

    test("cannot change roles through the API", async ({ request }) => {
      const response = await request.patch("/api/users/anyone/role", { data: { role: "admin" } });
      expect(response.status()).toBe(403);
    });

    test("cannot create, disable or reset users through the API", async ({ request }) => {
      const created = await request.post("/api/users", { data: { email: "backdoor@example.com", name: "Backdoor", role: "admin" } });
      expect(created.status()).toBe(403);
      expect((await request.post("/api/users/anyone/disable")).status()).toBe(403);
      expect((await request.post("/api/users/anyone/enable")).status()).toBe(403);
      expect((await request.post("/api/users/anyone/password-reset")).status()).toBe(403);
    });
  });
});
