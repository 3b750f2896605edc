// Issue 36 §2: a fork's edits are marked as edits end to end, as people meet
// them. A builder forks a finished run at its calculator call with an edited
// result and another model: the fork's header, the runs list and the compare
// page name it an unsaved variant of the saved version (never that version),
// and the conversation and the compare page mark the written result "edited
// by" its author. An approver's inbox card of a call the fork makes says what
// it is a fork of, at which step, and what was edited by whom.
import { randomUUID } from "node:crypto";
import { type APIRequestContext, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";
import type { SpanRowPage } from "../lib/runs/span-rows";

test.use({ storageState: storageStateFor("builder") });

const BUILDER = "builder@zap.local";
const shortId = (runId: string) => runId.slice(-8);

async function status(api: APIRequestContext, runId: string): Promise<string> {
  return ((await (await api.get(`/api/runs/${encodeURIComponent(runId)}`)).json()) as { run: { status: string } }).run.status;
}

async function startRun(api: APIRequestContext, graph: string, task: string): Promise<string> {
  const started = await api.post("/api/runs", { data: { graph, task } });
  expect(started.status(), await started.text()).toBe(201);
  return ((await started.json()) as { runId: string }).runId;
}

/** The saved version's name as the run header shows it ("research-loop v1"). */
async function headerVersion(page: Page, runId: string): Promise<string> {
  await page.goto(`/runs/${encodeURIComponent(runId)}`);
  const version = page.getByTestId("run-version");
  await expect(version).toHaveText(/^\S+ v\d+$/);
  return (await version.textContent()) ?? "";
}

test("a fork with an edited tool result and another model: an unsaved variant in the header, the runs list and the compare page; the written result marked edited in the conversation and the diff", async ({ page }) => {
  test.setTimeout(90_000);
  const tag = `fork-edits-${randomUUID().slice(0, 8)}`;
  const origin = await startRun(page.request, "research-loop", `tool calculator {"expression":"6*7"}\ntool current_time {}\nanswer: done (${tag})`);
  await expect.poll(() => status(page.request, origin), { timeout: 30_000, message: `run ${origin} answers` }).toBe("completed");
  const saved = await headerVersion(page, origin);

  // Fork at the calculator call, as a builder does: another model, and the result rewritten.
  await page.locator('[data-testid="span-row"][data-kind="tool"]').first().getByTitle(/calculator/).click();
  await page.getByTestId("span-details").getByRole("button", { name: "Fork from here" }).click();
  const dialog = page.getByRole("dialog", { name: "Fork from here" });
  await dialog.getByLabel("Model", { exact: true }).fill("demo/assistant");
  await dialog.getByLabel("Edit the tool's result").check();
  await dialog.getByLabel(/Edited result/).fill('{"result":43}');
  await dialog.getByRole("button", { name: "Start fork" }).click();
  await expect(page).not.toHaveURL(new RegExp(`/runs/${origin}$`));
  await expect(page.getByTestId("fork-of")).toContainText(origin);
  const fork = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
  await expect.poll(() => status(page.request, fork), { timeout: 30_000, message: `fork ${fork} answers` }).toBe("completed");

  // The header never names the saved version for what ran: a prompt or model nobody saved.
  await expect(page.getByTestId("run-version")).toHaveText(`unsaved variant of ${saved}`);

  // The conversation marks the result the builder wrote; the replayed and live ones carry no mark.
  await page.getByRole("tab", { name: "Conversation" }).click();
  const calculator = page.getByTestId("tool-call").filter({ hasText: "calculator" });
  await expect(calculator.getByTestId("conversation-edited")).toHaveText(`edited by ${BUILDER}`);
  await expect(calculator.getByTestId("conversation-edited")).toHaveAttribute("title", new RegExp(`^Edited by ${BUILDER} at \\d{4}-.*: not a recording$`));
  await expect(page.getByTestId("conversation-edited"), "only the edited step is marked").toHaveCount(1);

  // The compare page: the origin is the saved version, the fork its unsaved variant; the written step is marked on B only.
  await page.getByRole("link", { name: "Compare with origin" }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/compare\\?a=${origin}&b=${fork}$`));
  await expect(page.getByTestId("compare-run-a").getByTestId("compare-run-version")).toHaveText(saved);
  await expect(page.getByTestId("compare-run-b").getByTestId("compare-run-version")).toHaveText(`unsaved variant of ${saved}`);
  const editedStep = page.getByTestId("diff-step-b").filter({ has: page.getByTestId("diff-edited") });
  await expect(editedStep).toHaveCount(1);
  await expect(editedStep).toContainText("calculator");
  await expect(editedStep.getByTestId("diff-edited")).toHaveText(`edited by ${BUILDER}`);
  await expect(page.getByTestId("diff-step-a").getByTestId("diff-edited"), "the origin's recorded result is no edit").toHaveCount(0);

  // The runs list: the version column says the same.
  await page.goto(`/runs?graph=research-loop`);
  const rowOf = (runId: string) => page.getByTestId("run-row").filter({ has: page.getByLabel(`Select run ${runId}`) });
  await expect(rowOf(fork).getByTestId("run-version")).toHaveText(`unsaved variant of ${saved}`);
  await expect(rowOf(origin).getByTestId("run-version")).toHaveText(saved.replace(/^research-loop /, ""));
});

test("the inbox card of a fork's waiting call says what it is a fork of, at which step, what was edited by whom, and names the unsaved variant", async ({ browser, page, playwright, baseURL }) => {
  test.setTimeout(90_000);
  const approverApi = await playwright.request.newContext({ baseURL, storageState: storageStateFor("approver") });
  const amount = 2000 + Math.floor(Math.random() * 8000);
  const tag = randomUUID().slice(0, 8);
  const task = `Move the float ${tag}\ntool calculator {"expression":"6*7"}\ntool ledger_transfer {"from_account":"savings","to_account":"operating","amount":${amount}}\nanswer: moved (${tag})`;
  type Pending = { id: string; runId: string; rootRunId: string };
  const pendingIn = async (rootRunId: string) => ((await (await approverApi.get("/api/approvals")).json()) as { approvals: Pending[] }).approvals.filter((a) => a.rootRunId === rootRunId);
  const reject = async (call: Pending) => {
    const decided = await approverApi.post(`/api/runs/${call.runId}/approvals/${call.id}`, { data: { approved: false, reason: `e2e fork-edits (${tag})` } });
    expect(decided.status(), await decided.text()).toBe(200);
  };

  const context = await browser.newContext({ storageState: storageStateFor("approver") });
  const inbox = await context.newPage();
  const cardOf = (call: Pending) => inbox.getByTestId("approval-card").and(inbox.locator(`[data-approval-id="${call.id}"]`));
  // The inbox lists compact rows on a laptop-wide screen; choosing one opens its card beside the list (docs/inbox.md).
  const open = (call: Pending) => inbox.getByTestId("approval-row").and(inbox.locator(`[data-row-for="${call.id}"]`)).click();

  // The origin's call is an ordinary run's: its saved version, no fork. It is rejected (nothing moves), and the run answers.
  const origin = await startRun(page.request, "treasury", task);
  let pending: Pending[] = [];
  await expect.poll(async () => (pending = await pendingIn(origin)).length, { timeout: 30_000, message: "the origin's transfer waits" }).toBe(1);
  await inbox.goto("/inbox");
  await open(pending[0]!);
  const originCard = cardOf(pending[0]!);
  await expect(originCard.getByTestId("approval-graph")).toHaveText(/^treasury v\d+$/);
  const saved = (await originCard.getByTestId("approval-graph").textContent()) ?? "";
  await expect(originCard.getByTestId("approval-fork")).toHaveCount(0);
  await reject(pending[0]!);
  await expect.poll(() => status(page.request, origin), { timeout: 30_000, message: `run ${origin} answers` }).toBe("completed");

  // A fork at the calculator call with a written result and another model; its transfer is live, so it asks again.
  const spans = (await (await page.request.get(`/api/runs/${encodeURIComponent(origin)}/spans?limit=1000`)).json()) as SpanRowPage;
  const spanId = spans.rows.find(([, , kind, name]) => kind === "tool" && name === "calculator")?.[0];
  expect(spanId, "the origin's calculator call").toBeTruthy();
  const forked = await page.request.post(`/api/runs/${encodeURIComponent(origin)}/fork`, { data: { spanId, editedToolResult: '{"result":43}', model: "demo/assistant" } });
  expect(forked.status(), await forked.text()).toBe(201);
  const { runId: fork } = (await forked.json()) as { runId: string };
  await expect.poll(async () => (pending = await pendingIn(fork)).length, { timeout: 30_000, message: "the fork's transfer waits" }).toBe(1);

  // The open inbox shows the fork's call as it arrives.
  await open(pending[0]!);
  const card = cardOf(pending[0]!);
  await expect(card.getByTestId("approval-task"), "a fork repeats its origin's task").toHaveText(`Move the float ${tag}`);
  await expect(card.getByTestId("approval-fork")).toHaveText(`fork of ${shortId(origin)} at tool calculator (${spanId})`);
  await expect(card.getByTestId("approval-edited")).toHaveText(new RegExp(`^tool calculator result, by ${BUILDER} at \\d{4}-`));
  await expect(card.getByTestId("approval-graph")).toHaveText(`unsaved variant of ${saved}`);
  await expect(card.getByTestId("approval-run-link")).toHaveText(shortId(fork));

  // Tidy up: the fork's call is rejected so the shared inbox does not keep it.
  await reject(pending[0]!);
  await expect.poll(() => status(page.request, fork), { timeout: 30_000, message: `fork ${fork} answers` }).toBe("completed");
  await context.close();
  await approverApi.dispose();
});
