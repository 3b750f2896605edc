// Admin → Slack (issue 39 §2): an admin links a Slack member to the Zap user
// they decide approvals as, sees the link, and removes it; a builder can
// neither open the page nor link a member through the API.
import { randomBytes } from "node:crypto";
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

test.describe("as an admin", () => {
  test.use({ storageState: storageStateFor("admin") });

  test("links a Slack member to a Zap user, sees it listed, and unlinks it", async ({ page }) => {
    const member = `U${randomBytes(5).toString("hex").toUpperCase()}`;
    await page.goto("/admin/slack");
    await expect(page.getByRole("heading", { name: "Slack", level: 1 })).toBeVisible();
    await page.getByLabel("Slack member id").fill(member);
    await page.getByLabel("Zap Studio user (email)").fill("approver@zap.local");
    await page.getByRole("button", { name: "Link", exact: true }).click();
    await expect(page.getByTestId("alert-success")).toHaveText(`${member} now decides as approver@zap.local.`);
    const row = page.getByRole("row").filter({ hasText: member });
    await expect(row).toContainText("approver@zap.local");
    await expect(row).toContainText("approver");

    await page.getByLabel("Slack member id").fill("not-a-member");
    await page.getByLabel("Zap Studio user (email)").fill("approver@zap.local");
    await page.getByRole("button", { name: "Link", exact: true }).click();
    await expect(page.getByTestId("alert-error")).toContainText("expected a Slack member id");

    await row.getByRole("button", { name: `Unlink ${member}` }).click();
    await expect(page.getByTestId("alert-success")).toHaveText(`${member} is unlinked.`);
    await expect(page.getByRole("row").filter({ hasText: member })).toHaveCount(0);
  });
});

test.describe("as a builder", () => {
  test.use({ storageState: storageStateFor("builder") });

  test("gets a 403 page, and 403 from the API", async ({ page, request }) => {
    const response = await page.goto("/admin/slack");
    expect(response?.status()).toBe(403);
    const refused = await request.post("/api/slack/links", { data: { slackUserId: "U0BUILDER1", email: "builder@zap.local" } });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error.code).toBe("forbidden");
  });
});
