// Issue 25 §1: two people's identical transfers, told apart and approved by
// keyboard correctly. Two builders (Bo, a demo user, and Alex, an account the
// admin creates for this test) each start a
// treasury run whose demo agent asks for the same ledger_transfer; Bo's run had
// an earlier transfer the approver already decided (so it is "mine" for the
// approver). The approver sees whose each card is (graph, task, starter, run
// id), is not focused on anyone's card on load, is asked which call an approve
// by key on the group means, filters "mine", approves exactly Bo's call by key,
// and sees what the transfer did after the decision — in the inbox and in the
// run's conversation — while Alex's call stays pending.
import { randomUUID } from "node:crypto";
import { type APIRequestContext, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import type { Role } from "../lib/access/roles";
import { moveFocusTo } from "./inbox-keys";
import { signInThroughForm, storageStateFor } from "./support";

type Pending = { id: string; runId: string; rootRunId: string; arguments: { amount?: number } };

const transfer = (amount: number) => `tool ledger_transfer {"from_account":"savings","to_account":"operating","amount":${amount}}`;
const shortId = (runId: string) => runId.slice(-8);

async function startRun(api: APIRequestContext, task: string): Promise<string> {
  const response = await api.post("/api/runs", { data: { graph: "treasury", task } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { runId: string }).runId;
}

/** Moves the keyboard focus to the card `approvalId` (e2e/inbox-keys.ts: as many keys as calls lie between). */
async function focusCard(page: Page, approvalId: string): Promise<void> {
  await moveFocusTo(page, approvalId);
  await expect(page.locator('[data-testid="approval-card"][aria-current="true"]')).toHaveAttribute("data-approval-id", approvalId);
}

async function pendingOf(api: APIRequestContext, rootRunIds: string[]): Promise<Pending[]> {
  const body = (await (await api.get("/api/approvals")).json()) as { approvals: Pending[] };
  return body.approvals.filter((a) => rootRunIds.includes(a.rootRunId));
}

test("two builders' identical transfers are told apart, and the approver approves the intended one by keyboard", async ({ browser, playwright, baseURL }) => {
  test.setTimeout(120_000);
  const as = (role: Role) => playwright.request.newContext({ baseURL, storageState: storageStateFor(role) });
  const [bo, admin, approverApi] = await Promise.all([as("builder"), as("admin"), as("approver")]);
  const tag = randomUUID().slice(0, 8);

  // A second builder: the admin creates Alex, who signs in with the one-time password and chooses their own.
  const alexEmail = `alex-${tag}@example.com`;
  const created = await admin.post("/api/users", { data: { email: alexEmail, name: "Alex Builder", role: "builder" } });
  expect(created.status(), await created.text()).toBe(201);
  const { oneTimePassword } = (await created.json()) as { oneTimePassword: string };
  const alexContext = await browser.newContext();
  const alexPage = await alexContext.newPage();
  await alexPage.goto("/sign-in");
  await signInThroughForm(alexPage, alexEmail, oneTimePassword);
  await expect(alexPage).toHaveURL(/\/account$/);
  await alexPage.getByLabel("Current password", { exact: true }).fill(oneTimePassword);
  await alexPage.getByLabel("New password", { exact: true }).fill(`alex's own passphrase ${tag}`);
  await alexPage.getByLabel("Repeat the new password").fill(`alex's own passphrase ${tag}`);
  await alexPage.getByRole("button", { name: "Change password" }).click();
  // Done once the app sends them on to the dashboard (the shell's role shows on the account page before too).
  await expect(alexPage, "once changed, Alex goes on to the dashboard").toHaveURL(/\/$/);
  expect((await alexPage.request.get("/api/me")).status(), "Alex's session continues after the change").toBe(200);
  const alex = alexContext.request;
  // Amounts unique to this test, so no other spec's waiting call joins the group.
  const twin = 1000 + Math.floor(Math.random() * 8000);
  const earlier = twin + 1;
  const boTask = `Pay the rent ${tag}\ntool ledger_transfer {"from_account":"savings","to_account":"operating","amount":${earlier}}\ntool ledger_balance {"account":"operating"}\n${transfer(twin)}\nanswer: rent paid ${tag}`;
  const alexTask = `Fund payroll ${tag}\ntool ledger_balance {"account":"operating"}\n${transfer(twin)}\nanswer: payroll funded ${tag}`;

  const boRun = await startRun(bo, boTask);
  const alexRun = await startRun(alex, alexTask);

  // Bo's first transfer is decided by the approver (through the API): Bo's run becomes "mine" for the approver.
  let pending: Pending[] = [];
  await expect.poll(async () => (pending = await pendingOf(approverApi, [boRun])).length, { timeout: 30_000, message: "Bo's first transfer waits" }).toBe(1);
  expect(pending[0]?.arguments.amount).toBe(earlier);
  const first = await approverApi.post(`/api/runs/${boRun}/approvals/${pending[0]?.id}`, { data: { approved: true } });
  expect(first.status(), await first.text()).toBe(200);

  await expect
    .poll(async () => (pending = await pendingOf(approverApi, [boRun, alexRun])).filter((p) => p.arguments.amount === twin).length, { timeout: 30_000, message: "both identical transfers wait" })
    .toBe(2);
  const boCall = pending.find((p) => p.rootRunId === boRun);
  const alexCall = pending.find((p) => p.rootRunId === alexRun);

  const context = await browser.newContext({ storageState: storageStateFor("approver") });
  const page = await context.newPage();
  await page.goto("/inbox");

  // The two calls sit in one group of compact rows (a laptop-wide screen), each with its run and task.
  // Named by its amount too: another spec's two identical calls, left waiting, make a group of the same name.
  const group = page.getByRole("region", { name: "2 identical ledger_transfer calls" }).filter({ hasText: `amount: ${twin} ·` });
  const boRow = group.getByTestId("approval-row").filter({ hasText: `Pay the rent ${tag}` });
  const alexRow = group.getByTestId("approval-row").filter({ hasText: `Fund payroll ${tag}` });
  await expect(boRow).toContainText(`run ${shortId(boRun)}`);
  await expect(alexRow).toContainText(`run ${shortId(alexRun)}`);

  // No card has the keyboard focus on load: "a" decides nothing.
  const focused = page.getByTestId("approval-card").and(page.locator('[aria-current="true"]'));
  await expect(focused).toHaveCount(0);
  await page.keyboard.press("a");
  await expect(page.getByRole("status")).toHaveText("No card is chosen: move to one with j/k first.");

  // Choosing a row opens its card beside the list, which says whose it is: graph and version, task, starter, run id (linked).
  const card = page.getByTestId("inbox-detail").getByTestId("approval-card");
  await boRow.click();
  await expect(card.getByTestId("approval-task")).toHaveText(`Pay the rent ${tag}`);
  await expect(card.getByTestId("approval-starter")).toHaveText("Bo Builder (builder@zap.local)");
  await expect(card.getByTestId("approval-graph")).toHaveText(/^treasury v\d+$/);
  await expect(card.getByTestId("approval-run-link")).toHaveText(shortId(boRun));
  await expect(card.getByTestId("approval-run-link")).toHaveAttribute("href", new RegExp(`^/runs/${boRun}\\?approval=`));
  await alexRow.click();
  await expect(card.getByTestId("approval-task")).toHaveText(`Fund payroll ${tag}`);
  await expect(card.getByTestId("approval-starter")).toHaveText(`Alex Builder (${alexEmail})`);
  await expect(card.getByTestId("approval-run-link")).toHaveText(shortId(alexRun));

  // Move to Bo's card by keyboard; "a" on a grouped card asks which calls, naming each run, task and starter.
  await focusCard(page, boCall?.id ?? "");
  await expect(focused).toHaveAttribute("data-approval-id", boCall?.id ?? "");
  await page.keyboard.press("a");
  const which = page.getByRole("dialog", { name: "Approve which ledger_transfer calls?" });
  await expect(which.getByRole("button", { name: new RegExp(`^Approve run ${shortId(boRun)} “Pay the rent ${tag}” · started by Bo Builder`) })).toBeFocused();
  await expect(which.getByRole("button", { name: new RegExp(`^Approve run ${shortId(alexRun)} “Fund payroll ${tag}” · started by Alex Builder`) })).toBeVisible();
  await expect(which.getByRole("button", { name: "Approve all 2" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(which).toHaveCount(0);

  // "Mine": the approver decided in Bo's run before; Alex's run is not theirs.
  await page.getByRole("button", { name: "Mine", exact: true }).click();
  await expect(page.getByTestId("approval-card").filter({ hasText: `Fund payroll ${tag}` })).toHaveCount(0);
  const mineCard = page.getByTestId("approval-card").filter({ hasText: `Pay the rent ${tag}` });
  await expect(mineCard).toBeVisible();
  // The focus stays on the card the user moved to (it is still shown); approve it by key.
  await focusCard(page, boCall?.id ?? "");
  await expect(focused).toHaveAttribute("data-approval-id", boCall?.id ?? "");
  await page.keyboard.press("a");
  await expect(page.getByRole("status")).toContainText(`run ${shortId(boRun)}): approved`);

  // Exactly Bo's call was approved; Alex's still waits.
  await expect.poll(async () => (await pendingOf(approverApi, [boRun, alexRun])).map((p) => p.id), { timeout: 15_000 }).toEqual([alexCall?.id]);
  await expect.poll(async () => ((await (await bo.get(`/api/runs/${boRun}`)).json()) as { run: { output: string | null } }).run.output, { timeout: 30_000 }).toBe(`rent paid ${tag}`);

  // What the transfer did is shown after the decision, apart from what came before.
  const decided = page.getByRole("region", { name: "Decided here" }).getByTestId("decided-card").filter({ hasText: shortId(boRun) });
  const result = decided.getByTestId("result-after-decision");
  await expect(result).toHaveAttribute("data-status", "approved");
  await expect(result).toContainText("Result after approval");
  await expect(result).toContainText("by approver@zap.local");
  await expect(result).toContainText('"status": "completed"');
  await expect(result).toContainText(`"amount": ${twin}`);

  // All again: Alex's call is still there, and a bulk decision lists what it holds before it applies.
  await page.getByRole("button", { name: "All", exact: true }).click();
  // Alex's call is alone now: no longer in a group of identical calls.
  await expect(group).toHaveCount(0);
  await page.getByTestId("approval-row").filter({ hasText: `Fund payroll ${tag}` }).getByRole("checkbox").check();
  await page.getByRole("textbox", { name: "Reason for rejecting the selection" }).fill(`not this one (${tag})`);
  await page.getByRole("button", { name: "Reject selected…" }).click();
  const confirm = page.getByRole("group", { name: "Confirm: reject 1 selected" });
  await expect(confirm.getByTestId("selection-summary")).toHaveText(`ledger_transfer — run ${shortId(alexRun)} “Fund payroll ${tag}” · started by Alex Builder (${alexEmail})`);
  await confirm.getByRole("button", { name: "Back" }).click();
  expect((await pendingOf(approverApi, [alexRun])).map((p) => p.id), "going back decides nothing").toEqual([alexCall?.id]);

  // The run's conversation shows the approved transfer's result as the result after approval.
  await page.goto(`/runs/${encodeURIComponent(boRun)}`);
  await page.getByRole("tab", { name: "Conversation" }).click();
  const afterApproval = page.getByTestId("tool-call").getByTestId("result-after-decision");
  await expect(afterApproval).toHaveCount(2);
  await expect(afterApproval.filter({ hasText: `"amount": ${twin}` })).toContainText("Result after approval");
  await expect(afterApproval.filter({ hasText: `"amount": ${earlier}` })).toContainText("by approver@zap.local");
  // The balance read before the transfer is a plain result, not marked as done after a decision.
  await expect(page.getByTestId("tool-call").filter({ hasText: "ledger_balance" }).getByTestId("result-after-decision")).toHaveCount(0);

  // Tidy up: Alex's call is rejected so the shared inbox does not keep it.
  const tidy = await approverApi.post(`/api/runs/${alexCall?.runId}/approvals/${alexCall?.id}`, { data: { approved: false, reason: "e2e tidy-up" } });
  expect(tidy.status()).toBe(200);
  await context.close();
  await Promise.all([bo.dispose(), admin.dispose(), approverApi.dispose(), alexContext.close()]);
});
