import { expect, test } from "@playwright/test";
import { storageStateFor } from "./support";

test.describe("as an admin", () => {
  test.use({ storageState: storageStateFor("admin") });

  test("lists users and changes a role (and back)", async ({ page }) => {
    await page.goto("/admin/users");
    await expect(page.getByRole("heading", { name: "Users" })).toBeVisible();
    for (const email of ["viewer@zap.local", "builder@zap.local", "approver@zap.local", "admin@zap.local"]) {
      await expect(page.getByTestId(`user-row-${email}`)).toBeVisible();
    }
    const select = page.getByLabel("Role of approver@zap.local");
    await select.selectOption("builder");
    await expect(page.getByTestId("alert-success")).toHaveText("approver@zap.local is now builder.");
    await page.reload();
    await expect(page.getByLabel("Role of approver@zap.local")).toHaveValue("builder");
    await page.getByLabel("Role of approver@zap.local").selectOption("approver");
    await expect(page.getByTestId("alert-success")).toHaveText("approver@zap.local is now approver.");
  });

  test("cannot demote the last admin", async ({ page }) => {
    await page.goto("/admin/users");
    await page.getByLabel("Role of admin@zap.local").selectOption("viewer");
    await expect(page.getByTestId("alert-error")).toHaveText("This is the last admin; make someone else admin first");
  });

  test("users API validates input with precise errors", async ({ request }) => {
    const list = await request.get("/api/users");
    expect(list.status()).toBe(200);
    const { users } = (await list.json()) as { users: { id: string; email: string }[] };
    const viewer = users.find((u) => u.email === "viewer@zap.local");
    expect(viewer).toBeDefined();
    expect(JSON.stringify(users)).not.toContain("passwordHash");

    const badRole = await request.patch(`/api/users/${viewer!.id}`, { data: { role: "root" } });
    expect(badRole.status()).toBe(422);
    const body = await badRole.json();
    expect(body.error.code).toBe("validation_failed");
    expect(body.error.issues[0].path).toBe("role");

    const badJson = await request.patch(`/api/users/${viewer!.id}`, { data: Buffer.from("{not json"), headers: { "content-type": "application/json" } });
    expect(badJson.status()).toBe(400);
    expect((await badJson.json()).error.message).toBe("The request body is not valid JSON");

    const missing = await request.patch("/api/users/does-not-exist", { data: { role: "viewer" } });
    expect(missing.status()).toBe(404);
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
      const response = await request.patch("/api/users/anyone", { data: { role: "admin" } });
      expect(response.status()).toBe(403);
    });
  });
});
