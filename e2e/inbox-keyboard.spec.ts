// Issue 37 §4, the inbox keyboard, safe and complete. On a laptop-wide screen
// the inbox is a compact list (a dozen rows fit) beside the chosen call's
// card; the chosen row and card wear a 3 px outline and a bar, and the
// browser's focus follows j/k. Every keyboard decision (a, and Ctrl+Enter in
// the reason or edit form) is held for an undo window before anything is
// sent: u or Undo takes it back and the server never hears of it; leaving the
// inbox cancels it and the inbox says so on return; closing the tab asks
// first. Plain Enter is a newline in the reason; Escape closes the form. On a
// narrow screen the cards stay stacked and the focused one comes into view.
import { randomUUID } from "node:crypto";
import { type APIRequestContext, type Browser, type Locator, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { moveFocusTo } from "./inbox-keys";
import { storageStateFor } from "./support";

type Pending = { id: string; runId: string; rootRunId: string };
type RunEventLike = { type: string; tool?: string; status?: string; reason?: string | null; result?: string };

const WIDE = { width: 1280, height: 900 };
const NARROW = { width: 1024, height: 900 };
const shortId = (runId: string) => runId.slice(-8);
/**
 * Amounts of calls that are never approved: 40,000–59,999, so none reads as another spec's amount
 * ("amount": 7 in inbox.spec.ts) should it be left waiting.
 */
const unpaidAmount = () => 40_000 + Math.floor(Math.random() * 20_000);
/** Amounts that are paid: small, as the demo ledger's savings are shared with every other spec. */
const paidAmount = () => 40 + Math.floor(Math.random() * 10) + 0.5;

async function startTransfers(builder: APIRequestContext, tag: string, amounts: number[]): Promise<string[]> {
  const runIds: string[] = [];
  for (const amount of amounts) {
    const task = `Pay supplier ${amount} (${tag})\ntool ledger_transfer {"from_account":"savings","to_account":"operating","amount":${amount}}\nanswer: paid ${amount} (${tag})`;
    const response = await builder.post("/api/runs", { data: { graph: "treasury", task } });
    expect(response.status(), await response.text()).toBe(201);
    runIds.push(((await response.json()) as { runId: string }).runId);
  }
  return runIds;
}

async function pendingOf(api: APIRequestContext, rootRunIds: string[]): Promise<Pending[]> {
  const { approvals } = (await (await api.get("/api/approvals")).json()) as { approvals: Pending[] };
  return rootRunIds.flatMap((runId) => approvals.filter((a) => a.rootRunId === runId));
}

/** Waits until each run's transfer waits for approval; returns the calls in the runs' order. */
async function waitingCalls(api: APIRequestContext, runIds: string[]): Promise<Pending[]> {
  let calls: Pending[] = [];
  await expect.poll(async () => (calls = await pendingOf(api, runIds)).length, { timeout: 30_000, message: `${runIds.length} transfers wait` }).toBe(runIds.length);
  return calls;
}

async function events(api: APIRequestContext, runId: string): Promise<RunEventLike[]> {
  return ((await (await api.get(`/api/runs/${runId}/events?since=0`)).json()) as { events: RunEventLike[] }).events;
}

async function tidy(api: APIRequestContext, calls: Pending[], tag: string): Promise<void> {
  for (const call of await pendingOf(api, calls.map((c) => c.rootRunId))) {
    await api.post(`/api/runs/${call.runId}/approvals/${call.id}`, { data: { approved: false, reason: `e2e inbox-keyboard tidy-up (${tag})` } });
  }
}

async function approverPage(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ storageState: storageStateFor("approver"), viewport });
  return context.newPage();
}

const rowOf = (page: Page, call: Pending) => page.getByTestId("approval-row").and(page.locator(`[data-row-for="${call.id}"]`));
const currentRow = (page: Page) => page.getByTestId("approval-row").and(page.locator('[aria-current="true"]'));
const focusedCard = (page: Page) => page.getByTestId("approval-card").and(page.locator('[aria-current="true"]'));

/** Moves the keyboard focus to the call's row or card (e2e/inbox-keys.ts: as many keys as items lie between). */
async function moveTo(page: Page, current: Locator, idAttribute: string, call: Pending): Promise<void> {
  await moveFocusTo(page, call.id);
  await expect(current).toHaveAttribute(idAttribute, call.id);
}

/** The focus reads without colour: a 3 px solid outline, and a bar down the left edge. */
async function expectVisibleFocus(element: Locator): Promise<void> {
  await expect(element).toHaveCSS("outline-style", "solid");
  await expect(element).toHaveCSS("outline-width", "3px");
  const bar = await element.getByTestId("focus-bar").boundingBox();
  expect(bar?.width ?? 0, "a bar of at least 4 px marks the focus").toBeGreaterThanOrEqual(4);
}

test("wide screens: compact rows beside the chosen card, a visible focus, and keyboard decisions held for an undo window before they are sent", async ({ browser, playwright, baseURL }) => {
  test.setTimeout(120_000);
  const builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder") });
  const approverApi = await playwright.request.newContext({ baseURL, storageState: storageStateFor("approver") });
  const tag = randomUUID().slice(0, 8);
  const base = unpaidAmount();
  const runs = await startTransfers(builder, tag, [base, base + 1, base + 2]);
  const [a, b, c] = await waitingCalls(approverApi, runs);
  if (!a || !b || !c) throw new Error("three calls wait");
  const page = await approverPage(browser, WIDE);
  await page.goto("/inbox");

  // Compact rows: tool, agent, run, the amount, the countdown; at least eight fit on a 900 px screen.
  const rowA = rowOf(page, a);
  await expect(rowA).toContainText(`ledger_transfer`);
  await expect(rowA).toContainText(`treasurer`);
  await expect(rowA).toContainText(`run ${shortId(a.runId)}`);
  await expect(rowA.getByTestId("row-summary")).toContainText(`amount: ${base} · from_account: savings`);
  await expect(rowA.getByTestId("row-countdown")).toHaveText(/expires in/);
  const list = await page.getByTestId("inbox-rows").boundingBox();
  const row = await rowA.boundingBox();
  if (!list || !row) throw new Error("the list and its rows are on screen");
  expect(row.height, "a row is one or two lines").toBeLessThanOrEqual(64);
  expect(Math.floor((WIDE.height - list.y) / (row.height + 4)), "rows that fit below the list's top on a 900 px screen").toBeGreaterThanOrEqual(8);
  await expect(page.getByTestId("inbox-detail")).toContainText("Choose a call");

  // j moves to a row: outlined, barred, focused by the browser; its card opens beside the list.
  await moveTo(page, currentRow(page), "data-row-for", a);
  await expectVisibleFocus(currentRow(page));
  await expect(rowA.getByRole("button")).toBeFocused();
  await expect(rowA).toBeInViewport();
  const detail = page.getByTestId("inbox-detail").getByTestId("approval-card");
  await expect(detail).toHaveAttribute("data-approval-id", a.id);
  await expect(detail).toHaveAttribute("aria-current", "true");
  await expectVisibleFocus(detail);
  await expect(detail.getByTestId("approval-arguments")).toContainText(`"amount": ${base}`);
  await expect(detail.getByTestId("approval-usage")).toBeVisible();
  await expect(detail.getByRole("button", { name: "Approve", exact: true })).toBeVisible();

  // a holds the approval: a toast and the card say what will be sent and when; u takes it back.
  await page.keyboard.press("a");
  const toast = page.getByTestId("undo-toast");
  await expect(toast).toContainText(`Approving ledger_transfer (treasurer, run ${shortId(a.runId)}) in`);
  await expect(toast.getByTestId("held-seconds")).toHaveText(/^[1-5]$/);
  await expect(detail.getByTestId("approval-held")).toContainText("Approving in");
  await expect(detail.getByRole("button", { name: "Approve", exact: true }), "nothing to click twice while it is held").toBeDisabled();
  await page.keyboard.press("u");
  await expect(toast).toHaveCount(0);
  await expect(page.getByRole("status")).toHaveText(`Undone: approving ledger_transfer (treasurer, run ${shortId(a.runId)}). Nothing was sent; it still waits.`);

  // r: plain Enter is a newline in the reason, Ctrl+Enter holds the rejection; the toast's Undo takes it back.
  await moveTo(page, currentRow(page), "data-row-for", b);
  await page.keyboard.press("r");
  const reason = detail.getByRole("textbox", { name: "Reason (the model reads it)" });
  await expect(reason).toBeFocused();
  await page.keyboard.type("Not this supplier");
  await page.keyboard.press("Enter");
  await page.keyboard.type("(duplicate invoice)");
  await expect(reason).toHaveValue("Not this supplier\n(duplicate invoice)");
  await page.keyboard.press("Control+Enter");
  await expect(toast).toContainText(`Rejecting ledger_transfer (treasurer, run ${shortId(b.runId)}) in`);
  await expect(reason, "the form closes; the decision waits in the toast").toHaveCount(0);
  await expect(rowOf(page, b).getByRole("button"), "the keys are back on the row").toBeFocused();
  await toast.getByRole("button", { name: `Undo rejecting ledger_transfer (treasurer, run ${shortId(b.runId)})` }).click();
  await expect(toast).toHaveCount(0);
  await expect(page.getByRole("status")).toHaveText(`Undone: rejecting ledger_transfer (treasurer, run ${shortId(b.runId)}). Nothing was sent; it still waits.`);
  // The reason is still there to send again; Escape closes the form and hands the keys back to the row.
  await rowOf(page, b).getByRole("button").focus();
  await page.keyboard.press("r");
  await expect(reason).toHaveValue("Not this supplier\n(duplicate invoice)");
  await page.keyboard.press("Escape");
  await expect(reason).toHaveCount(0);
  await expect(rowOf(page, b).getByRole("button")).toBeFocused();

  // e: Ctrl+Enter approves with the edit after the window, unless undone.
  await moveTo(page, currentRow(page), "data-row-for", c);
  await page.keyboard.press("e");
  const edit = detail.getByRole("form", { name: "Edit arguments" });
  await expect(edit.getByRole("textbox").first(), "the form takes the keys").toBeFocused();
  const edited = paidAmount();
  await edit.getByRole("textbox", { name: /^amount/ }).fill(String(edited));
  await page.keyboard.press("Enter");
  await expect(edit, "plain Enter in a field sends nothing").toBeVisible();
  await page.keyboard.press("Control+Enter");
  await expect(toast).toContainText(`Approving with edits ledger_transfer (treasurer, run ${shortId(c.runId)}) in`);
  await expect(page.getByRole("status")).toHaveText(`ledger_transfer (treasurer, run ${shortId(c.runId)}): approved`);
  await expect(toast).toHaveCount(0);
  await expect(rowOf(page, c)).toHaveCount(0);
  await expect.poll(async () => (await events(approverApi, c.runId)).find((e) => e.type === "tool_call_completed" && e.tool === "ledger_transfer")?.result ?? "", { timeout: 30_000 }).toContain(`"amount":${edited},`);

  // C was held after A and B were undone, so their windows are long over: the server never heard of them.
  expect((await pendingOf(approverApi, [a.rootRunId, b.rootRunId])).map((p) => p.id), "undone decisions were never sent").toEqual([a.id, b.id]);
  expect((await events(approverApi, b.runId)).some((e) => e.type === "approval_decided"), "no decision in B's history").toBe(false);

  await tidy(approverApi, [a, b], tag);
  await page.context().close();
  await Promise.all([builder.dispose(), approverApi.dispose()]);
});

test("a held decision is cancelled, and said to be, when the approver leaves the inbox; closing the tab asks first", async ({ browser, playwright, baseURL }) => {
  test.setTimeout(90_000);
  const builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder") });
  const approverApi = await playwright.request.newContext({ baseURL, storageState: storageStateFor("approver") });
  const tag = randomUUID().slice(0, 8);
  const runs = await startTransfers(builder, tag, [paidAmount()]);
  const [call] = await waitingCalls(approverApi, runs);
  if (!call) throw new Error("the call waits");
  // The stacked cards (a narrow screen): holding is the same in both layouts.
  const page = await approverPage(browser, NARROW);
  await page.goto("/inbox");

  // a, then a link away inside the window: nothing is sent, and back in the inbox the note says so.
  await moveTo(page, focusedCard(page), "data-approval-id", call);
  await page.keyboard.press("a");
  await expect(page.getByTestId("undo-toast")).toContainText("Leaving the inbox before then cancels it");
  await page.getByRole("link", { name: "Audit", exact: true }).click();
  await expect(page).toHaveURL(/\/inbox\/audit/);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Inbox/ }).click();
  await expect(page.getByRole("status")).toHaveText(
    `Not sent: approving ledger_transfer (treasurer, run ${shortId(call.runId)}) — cancelled when you left the inbox during the undo window. Still waiting; decide again.`,
  );
  await expect(page.getByTestId("approval-card").and(page.locator(`[data-approval-id="${call.id}"]`))).toBeVisible();

  // Held again, then the tab is closed: the browser asks first; staying keeps the decision, which is then sent.
  // Had the first one been sent after all, this one would hear "already approved" instead.
  await moveTo(page, focusedCard(page), "data-approval-id", call);
  await page.keyboard.press("a");
  await expect(page.getByTestId("undo-toast")).toBeVisible();
  const asked = new Promise<string>((resolve) => page.once("dialog", (dialog) => void dialog.dismiss().then(() => resolve(dialog.type()))));
  await page.close({ runBeforeUnload: true });
  expect(await asked, "closing the tab with a held decision asks first").toBe("beforeunload");
  await expect(page.getByRole("status")).toHaveText(`ledger_transfer (treasurer, run ${shortId(call.runId)}): approved`);
  expect(await pendingOf(approverApi, runs)).toEqual([]);

  await page.context().close();
  await Promise.all([builder.dispose(), approverApi.dispose()]);
});

test("narrow screens keep the stacked cards: the focused card is outlined, barred and brought into view; Ctrl+Enter rejects with a multi-line reason", async ({ browser, playwright, baseURL }) => {
  test.setTimeout(90_000);
  const builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder") });
  const approverApi = await playwright.request.newContext({ baseURL, storageState: storageStateFor("approver") });
  const tag = randomUUID().slice(0, 8);
  const base = unpaidAmount();
  const runs = await startTransfers(builder, tag, [base, base + 1, base + 2]);
  const calls = await waitingCalls(approverApi, runs);
  const last = calls.at(-1);
  if (!last) throw new Error("three calls wait");
  const page = await approverPage(browser, NARROW);
  await page.goto("/inbox");

  await expect(page.getByTestId("approval-card").and(page.locator(`[data-approval-id="${last.id}"]`))).toBeVisible();
  await expect(page.getByTestId("approval-row"), "no compact list on a narrow screen").toHaveCount(0);
  await moveTo(page, focusedCard(page), "data-approval-id", last);
  const card = focusedCard(page);
  await expectVisibleFocus(card);
  await expect(card).toBeFocused();
  await expect(card, "the focused card is brought into view").toBeInViewport({ ratio: 0.9 });

  await page.keyboard.press("r");
  await page.keyboard.type("Wrong account");
  await page.keyboard.press("Enter");
  await page.keyboard.type(`Ask finance (${tag})`);
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(page.getByTestId("undo-toast")).toContainText(`Rejecting ledger_transfer (treasurer, run ${shortId(last.runId)}) in`);
  await expect(page.getByRole("status")).toHaveText(`ledger_transfer (treasurer, run ${shortId(last.runId)}): rejected`);
  const decided = (await events(approverApi, last.runId)).find((e) => e.type === "approval_decided");
  expect(decided, "the reason keeps its line break").toMatchObject({ status: "rejected", reason: `Wrong account\nAsk finance (${tag})` });

  await tidy(approverApi, calls, tag);
  await page.context().close();
  await Promise.all([builder.dispose(), approverApi.dispose()]);
});
