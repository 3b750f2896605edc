// "Stuck or burning" (issue 37 §3): a run that is quiet only because a call
// waits for an approver says so, and links to that call in the inbox, which
// opens with it chosen; the view's thresholds are fields that change the URL
// and the list.
import path from "node:path";
import { expect, test } from "./fixtures";
import { createDb } from "../lib/db/prisma";
import { storageStateFor } from "./support";

test.use({ storageState: storageStateFor("approver") });

test("a run waiting for an approver says so and opens its call in the inbox; the thresholds are fields", async ({ page, playwright, baseURL }) => {
  const builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder"), extraHTTPHeaders: { Origin: baseURL ?? "" } });
  const amount = 7000 + Math.floor(Math.random() * 2000);
  const started = await builder.post("/api/runs", { data: { graph: "treasury", task: `tool ledger_transfer {"from_account":"savings","to_account":"operating","amount":${amount}}\nanswer: stuck ${amount}` } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  let approvalId: string | undefined;
  try {
    await expect
      .poll(async () => {
        const { approvals } = (await (await page.request.get("/api/approvals")).json()) as { approvals: { id: string; runId: string }[] };
        approvalId = approvals.find((a) => a.runId === runId)?.id;
        return approvalId;
      }, { timeout: 20_000, message: "the transfer waits for an approver" })
      .toBeTruthy();
    await expect.poll(async () => ((await (await page.request.get(`/api/runs/${runId}`)).json()) as { run: { status: string } }).run.status).toBe("awaiting_approval");
    // Its tree last wrote half an hour ago (the ledger stamps each write; waiting writes nothing).
    const dataDir = process.env.E2E_DATA_DIR ?? path.join(import.meta.dirname, "..", ".data", "e2e");
    const db = createDb(process.env.E2E_DATABASE_URL ?? `file:${path.join(dataDir, "zap.db")}`);
    try {
      await db.run.updateMany({ where: { rootRunId: runId }, data: { updatedAt: new Date(Date.now() - 30 * 60_000) } });
    } finally {
      await db.$disconnect();
    }

    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto("/runs?view=stuck&stuckMinutes=10&burnPerMinute=0.5");
    const row = page.getByTestId("run-row").filter({ has: page.getByLabel(`Select run ${runId}`) });
    await expect(row.getByTestId("stuck-reasons")).toHaveText(/^waiting for an approver for 3\d min · open in inbox$/);

    // The thresholds are fields: 45 quiet minutes leave this run out, 20 bring it back.
    const minutes = page.getByRole("spinbutton", { name: "No progress for (minutes)" });
    await expect(minutes).toHaveValue("10");
    await minutes.fill("45");
    await minutes.press("Enter");
    await expect(page).toHaveURL(/stuckMinutes=45/);
    await expect(page.getByTestId("view-description")).toContainText("no progress for 45 min");
    await expect(page.getByRole("navigation", { name: "Saved views" }).getByRole("link", { name: "stuck or burning" })).toHaveAttribute("aria-current", "page");
    await expect(row).toHaveCount(0);
    await minutes.fill("20");
    await minutes.press("Enter");
    await expect(page).toHaveURL(/stuckMinutes=20/);
    await expect(row).toHaveCount(1);

    await row.getByRole("link", { name: "Open the waiting ledger_transfer call in the inbox" }).click();
    await expect(page).toHaveURL(new RegExp(`/inbox\\?approval=${approvalId}$`));
    const call = page.locator(`[data-focus-for="${approvalId}"]`);
    await expect(call, "the linked call is chosen and has the focus").toBeFocused();
    await expect(page.locator('[aria-current="true"]', { has: call }), "the linked call is the chosen one").toHaveCount(1);
  } finally {
    // Decided, not cancelled: a cancelled run's call would stay pending in the ledger.
    if (approvalId) await page.request.post(`/api/runs/${runId}/approvals/${approvalId}`, { data: { approved: false, reason: "e2e: stuck-or-burning is done" } });
    else await builder.post(`/api/runs/${runId}/cancel`);
    await builder.dispose();
  }
});
