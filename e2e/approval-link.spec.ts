// Issue 39 §2: the Approve link of an approval email, followed by someone
// signed out. The link leads to sign-in and back to the approval page, which
// has decided nothing; pressing Approve there decides it as the signed-in
// approver, and the inbox's audit shows the decision. (The email itself, sent
// by the worker over SMTP, is covered by lib/approval-channels/approval-email.int.test.ts;
// the link is the one that email carries: /approvals/<id>?decision=approve.)
import { expect, test } from "@playwright/test";
import { demoUser, hydrated, signInThroughForm, storageStateFor } from "./support";

const TASK = 'tool ledger_transfer {"from_account":"savings","to_account":"operating","amount":6}\nanswer: moved';

test("from an approval email's link: sign in, confirm, and the inbox shows the decision", async ({ browser, playwright, baseURL }) => {
  const builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder") });
  const started = await builder.post("/api/runs", { data: { graph: "treasury", task: TASK } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  const pendingId = async () => ((await (await builder.get(`/api/runs/${encodeURIComponent(runId)}/approvals`)).json()) as { approvals: { id: string }[] }).approvals[0]?.id ?? "";
  await expect.poll(pendingId, { message: "the run asks for an approval", timeout: 20_000 }).not.toBe("");
  const approvalId = await pendingId();

  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`/approvals/${approvalId}?decision=approve`);
  await expect(page, "signed out, the link leads to sign-in").toHaveURL(/\/sign-in\?callbackUrl=/);
  const approver = demoUser("approver");
  await signInThroughForm(page, approver.email, approver.password);
  await expect(page, "and back to the approval").toHaveURL(new RegExp(`/approvals/${approvalId}\\?decision=approve$`));
  await expect(page.getByTestId("approval-intent")).toContainText("Nothing is decided until you press Approve");
  const card = page.getByTestId("approval-card");
  await expect(card).toContainText('"amount": 6');
  const status = await (await builder.get(`/api/runs/${encodeURIComponent(runId)}`)).json();
  expect((status as { run: { status: string } }).run.status, "opening the link decided nothing").toBe("awaiting_approval");

  const approve = card.getByRole("button", { name: "Approve", exact: true });
  await hydrated(approve);
  await approve.click();
  await expect(page.getByTestId("approval-outcome"), "the page now says who decided").toContainText(`approved by ${approver.email}`);

  await page.goto(`/inbox/audit?person=${encodeURIComponent(approver.email)}`);
  const row = page.locator(`[data-testid="audit-row"][data-approval-id="${approvalId}"]`);
  await expect(row).toContainText("approved");
  await expect(row).toContainText(approver.email);
  await Promise.all([context.close(), builder.dispose()]);
});
