// The workspace approval policy: an admin reads the effective gate of each
// built-in and saves a change (audited, new revision); a builder can neither
// open the page nor change the policy through the API. The policy is the
// workspace's, shared by every spec: the savedPolicy fixture puts it back
// after the test, passed or failed.
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

test.describe("as an admin", () => {
  test.use({ storageState: storageStateFor("admin") });

  test("sees what the policy gates and saves a new revision", async ({ page, savedPolicy }) => {
    await page.goto("/admin/policy");
    await expect(page.getByRole("heading", { name: "Approval policy" })).toBeVisible();
    const preview = page.getByTestId("policy-gate-preview");
    await expect(preview.getByRole("listitem").filter({ hasText: "ledger_transfer" })).toContainText("needs any approver");
    await expect(preview.getByRole("listitem").filter({ hasText: "calculator" })).toContainText("runs without approval");

    // The preview follows the form before saving: a higher floor shows at once.
    await page.getByLabel("Role that decides, at least").selectOption("admin");
    await expect(preview.getByRole("listitem").filter({ hasText: "ledger_transfer" })).toContainText("needs admin");
    await page.getByLabel("Role that decides, at least").selectOption("");

    const before = savedPolicy;
    const exempt = page.getByLabel("Exempt tools");
    await exempt.fill([...before.policy.exemptTools, "ledger_balance"].join("\n"));
    await page.getByRole("button", { name: "Save policy" }).click();
    await expect(page.getByTestId("alert-success")).toContainText(`Saved as revision ${before.revision + 1}`);
    const after = (await (await page.request.get("/api/policy")).json()) as { revision: number; policy: { exemptTools: string[] } };
    expect(after.policy.exemptTools).toEqual([...before.policy.exemptTools, "ledger_balance"]);
  });
});

test.describe("as a builder", () => {
  test.use({ storageState: storageStateFor("builder") });

  test("gets a 403 page, and 403 from the API whatever the body", async ({ page, request }) => {
    const response = await page.goto("/admin/policy");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Your role cannot open this page" })).toBeVisible();
    const refused = await request.put("/api/policy", { data: { exemptTools: ["*"] } });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error.code).toBe("forbidden");
  });
});
