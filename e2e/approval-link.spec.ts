// Issue 39 §2: approvals by email, in the browser. An admin points the approval
// channels at an SMTP server (a local one here); the worker emails the request
// to who may decide; its Approve link, followed by someone signed out, leads to
// sign-in and back to the approval page, which has decided nothing; pressing
// Approve there decides it as the signed-in approver; a follow-up email and the
// inbox's audit both say who decided. (Retries, reminders and the deadline's
// email: lib/approval-channels/approval-email.int.test.ts.)
import { expect, test } from "./fixtures";
import { startSmtpReceiver, type ReceivedMail } from "../scripts/test-support/smtp-receiver";
import { demoUser, hydrated, signInThroughForm, storageStateFor } from "./support";

// Each model call thinks 6 s, so the approval is asked after the worker's few seconds of cached channel settings have passed.
const TASK = 'think 6000\ntool ledger_transfer {"from_account":"savings","to_account":"operating","amount":6}\nanswer: moved';

test("from an approval email's link: sign in, confirm; the follow-up email and the inbox show the decision", async ({ browser, playwright, baseURL }) => {
  const smtp = await startSmtpReceiver();
  const admin = await playwright.request.newContext({ baseURL, storageState: storageStateFor("admin"), extraHTTPHeaders: { Origin: baseURL ?? "" } });
  const configured = await admin.patch("/api/approval-channels", { data: { smtpUrl: smtp.url, smtpPassword: null, smtpFrom: "zap@zap.test", emailTo: ["approver@zap.local"] } });
  expect(configured.status(), await configured.text()).toBe(200);
  const builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder") });
  try {
    const started = await builder.post("/api/runs", { data: { graph: "treasury", task: TASK } });
    expect(started.status(), await started.text()).toBe(201);
    const { runId } = (await started.json()) as { runId: string };
    const pendingId = async () => ((await (await builder.get(`/api/runs/${encodeURIComponent(runId)}/approvals`)).json()) as { approvals: { id: string }[] }).approvals[0]?.id ?? "";
    await expect.poll(pendingId, { message: "the run asks for an approval", timeout: 20_000 }).not.toBe("");
    const approvalId = await pendingId();
    const mailsAbout = (): ReceivedMail[] => smtp.mails.filter((m) => m.headers.get("x-zap-approval") === approvalId);
    await expect.poll(() => mailsAbout().length, { message: "the request is emailed to the approver", timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    const [request] = mailsAbout();
    expect(request?.to).toEqual(["approver@zap.local"]);
    expect(request?.subject).toContain(`run ${runId}`);
    // The link the email carries, opened as it is (its path and query).
    const link = /Approve: \S*(\/approvals\/\S+\?decision=approve)/.exec(request?.text ?? "")?.[1];
    expect(link, request?.text).toBe(`/approvals/${approvalId}?decision=approve`);

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(link ?? "");
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
    await expect.poll(() => mailsAbout().length, { message: "a follow-up email says who decided", timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    expect(mailsAbout()[1]?.text.split("\n")[0]).toMatch(/^Approved by approver@zap\.local at /);
    await context.close();
  } finally {
    // The stack is shared with the lane's other specs: no approval of theirs is emailed.
    await admin.patch("/api/approval-channels", { data: { smtpUrl: null, smtpFrom: null, emailTo: null } });
    await Promise.all([admin.dispose(), builder.dispose(), smtp.close()]);
  }
});
