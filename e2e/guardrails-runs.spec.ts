// Guardrails in running agents (issue 40 §1), as a builder and an approver see
// them: an input guardrail that blocks a Luhn-valid card number fails the run
// with guardrail_tripped naming it (run header, a guardrail span with its
// verdict, the runs list's reason column and filter) and shows as a shield on
// the designer's node; the same guardrail with the action mask lets the run go
// on with the number redacted on every page and in every API answer; a tool
// guardrail sends a large transfer to the inbox, where the approver reads which
// guardrail held it and why, approves it, and the run completes. Each test
// saves a graph of its own.
import { type APIRequestContext, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import type { GuardrailInput } from "../lib/guardrails/schemas";
import { storageStateFor } from "./support";

test.use({ storageState: storageStateFor("builder"), viewport: { width: 1440, height: 1000 } });

/** A Luhn-valid card number (a test number), as a person types it and as the digits alone. */
const CARD = "4111 1111 1111 1111";
const CARD_DIGITS = CARD.replaceAll(" ", "");

let builder: APIRequestContext;

test.beforeAll(async ({ playwright, baseURL }) => {
  builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder"), extraHTTPHeaders: { Origin: baseURL ?? "" } });
});

test.afterAll(async () => {
  await builder.dispose();
});

/** A graph of its own: one demo agent with these guardrails (and the ledger's transfer tool). */
async function guardedGraph(prefix: string, guardrails: GuardrailInput[]): Promise<string> {
  const graph = `${prefix}-${Date.now().toString(36)}`;
  expect((await builder.post("/api/agents", { data: { name: graph } })).status()).toBe(201);
  const saved = await builder.post(`/api/agents/${graph}/versions`, {
    data: { baseVersion: 1, message: "guarded agent", graph: { entryAgent: "solo", agents: [{ name: "solo", model: "demo/assistant", systemPrompt: "Answer.", tools: ["ledger_transfer"], guardrails }] } },
  });
  expect(saved.status(), await saved.text()).toBe(201);
  return graph;
}

async function startRun(graph: string, task: string): Promise<string> {
  const response = await builder.post("/api/runs", { data: { graph, task } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { runId: string }).runId;
}

async function statusOf(runId: string): Promise<string> {
  return ((await (await builder.get(`/api/runs/${encodeURIComponent(runId)}`)).json()) as { run: { status: string } }).run.status;
}

async function reaches(runId: string, status: string): Promise<void> {
  await expect.poll(() => statusOf(runId), { timeout: 30_000, message: `run ${runId} is ${status}` }).toBe(status);
}

/** Every API answer that carries what a run holds: summary, events, spans (with their attributes), each span's details, conversation, the runs list. */
async function apiAnswers(runId: string, graph: string): Promise<Record<string, string>> {
  const run = encodeURIComponent(runId);
  const get = async (url: string) => {
    const response = await builder.get(url);
    expect(response.status(), `${url}: ${await response.text()}`).toBe(200);
    return response.text();
  };
  const answers: Record<string, string> = {
    summary: await get(`/api/runs/${run}`),
    events: await get(`/api/runs/${run}/events?since=0`),
    spans: await get(`/api/runs/${run}/spans`),
    messages: await get(`/api/runs/${run}/messages`),
    list: await get(`/api/runs/list?graph=${graph}&pageSize=50`),
  };
  const rows = (JSON.parse(answers.spans ?? "{}") as { rows: [string][] }).rows;
  for (const [spanId] of rows) answers[`span ${spanId}`] = await get(`/api/runs/${run}/spans/${encodeURIComponent(spanId)}`);
  return answers;
}

/** No digit run of the card, spaced or not, anywhere in `text`. */
function expectNoCard(text: string, where: string): void {
  expect(text, `${where} holds no card number`).not.toContain(CARD);
  expect(text, `${where} holds no card number`).not.toContain(CARD_DIGITS);
  expect(text, `${where} holds no card number`).not.toMatch(/4111[ -]?1111[ -]?1111/);
}

/** The value the span details show beside an attribute's name (a term and its definition). */
function spanAttribute(page: Page, name: string) {
  return page.getByTestId("span-details").getByTestId("span-attribute").filter({ hasText: new RegExp(`^${name}$`) }).locator("xpath=following-sibling::dd[1]");
}

/** The span details of a guardrail check say its verdict, action, reason and detectors: never what it found. */
async function expectCheckDetails(page: Page, action: string): Promise<void> {
  await expect(spanAttribute(page, "verdict")).toHaveText("tripped");
  await expect(spanAttribute(page, "action")).toHaveText(action);
  await expect(spanAttribute(page, "check")).toHaveText("pii");
  await expect(spanAttribute(page, "reason")).toHaveText("The text contains a card number.");
  await expect(spanAttribute(page, "detectors")).toHaveText("card");
}

async function guardrailSpan(page: Page, name: string) {
  const row = page.locator('[data-testid="span-row"][data-kind="guardrail"]').filter({ hasText: name });
  await expect(row, `one guardrail span named ${name}`).toHaveCount(1);
  return row;
}

const cardGuardrail = (action: "block" | "mask"): GuardrailInput => ({ name: "no-cards", kind: "input", check: { type: "pii", detectors: ["card"] }, action });

test("a card number in the task trips an input guardrail: the run fails with guardrail_tripped in its header, trace and the runs list", async ({ page }) => {
  const graph = await guardedGraph("guard-block", [cardGuardrail("block")]);
  const runId = await startRun(graph, `Please charge my card ${CARD} today.\nanswer: charged`);
  await reaches(runId, "failed");

  // The designer's node wears a shield counting the agent's guardrails, its title naming each with its action.
  await page.goto(`/agents/${graph}`);
  const marker = page.locator('.react-flow__node[data-id="agent:solo"]').getByTestId("guardrail-marker");
  await expect(marker).toHaveText("🛡 1");
  await expect(marker).toHaveAttribute("title", "1 guardrail: no-cards: block");

  await page.goto(`/runs/${encodeURIComponent(runId)}`);
  await expect(page.getByRole("alert").filter({ hasText: "guardrail_tripped" })).toHaveText('guardrail_tripped: guardrail "no-cards" (input, pii) tripped: The text contains a card number.');
  const check = await guardrailSpan(page, "no-cards");
  await expect(check, "the check that stopped the run is an error span").toHaveAttribute("data-status", "error");
  await check.getByTitle(/^guardrail check no-cards/).click();
  await expect(page.getByTestId("span-status")).toHaveText("error");
  await expectCheckDetails(page, "block");
  // A blocked task is withheld, never stored as sent: not on the page nor in any API answer.
  expectNoCard((await page.locator("body").textContent()) ?? "", "the run page");
  for (const [where, body] of Object.entries(await apiAnswers(runId, graph))) expectNoCard(body, where);

  // The runs list: its failure column says why, and the Failure filter finds it.
  await page.goto(`/runs?graph=${graph}`);
  const row = page.getByTestId("run-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("failure-reason")).toHaveText("guardrail tripped");
  await expect(row.getByTestId("failure-reason")).toHaveAttribute("title", /^guardrail "no-cards" \(input, pii\) tripped/);
  await page.getByRole("combobox", { name: "Failure" }).selectOption("guardrail_tripped");
  await expect(page).toHaveURL(/reason=guardrail_tripped/);
  await expect(page.getByTestId("run-row")).toHaveCount(1);
  await page.getByRole("combobox", { name: "Failure" }).selectOption("timeout");
  await expect(page.getByTestId("run-row"), "no run of this graph timed out").toHaveCount(0);
});

test("with the action mask the run goes on, and the card number is redacted in the conversation, the trace and every API answer", async ({ page }) => {
  const graph = await guardedGraph("guard-mask", [cardGuardrail("mask")]);
  const runId = await startRun(graph, `answer: The refund to card ${CARD} is queued.`);
  await reaches(runId, "completed");

  await page.goto(`/runs/${encodeURIComponent(runId)}`);
  await expect(page.getByTestId("run-output")).toHaveText("The refund to card [redacted card] is queued.");
  const check = await guardrailSpan(page, "no-cards");
  await expect(check, "a mask lets the run go on").toHaveAttribute("data-status", "ok");
  await check.getByTitle(/^guardrail check no-cards/).click();
  await expect(page.getByTestId("span-status")).toHaveText("ok");
  await expectCheckDetails(page, "mask");
  expectNoCard((await page.locator("body").textContent()) ?? "", "the run page's trace");

  await page.getByRole("tab", { name: "Conversation" }).click();
  const conversation = page.getByRole("region", { name: "Conversation" });
  await expect(conversation.getByTestId("user-message").first()).toContainText(`answer: The refund to card [redacted card] is queued.`);
  await expect(conversation.getByTestId("assistant-text").last()).toContainText("The refund to card [redacted card] is queued.");
  expectNoCard((await page.locator("body").textContent()) ?? "", "the run page's conversation");

  // The API (what an export reads): the summary, events, spans and their attributes, each span's details, the conversation, the list.
  const answers = await apiAnswers(runId, graph);
  for (const [where, body] of Object.entries(answers)) expectNoCard(body, where);
  expect(answers.messages, "the conversation holds the masked task").toContain("[redacted card]");
  const spans = JSON.parse(answers.spans ?? "{}") as { rows: [string, string | null, string, string, string, number, number | null, { attributes?: Record<string, unknown> }][] };
  const guard = spans.rows.find((row) => row[2] === "guardrail");
  expect(guard?.[7].attributes, "the span's attributes say what the check did, never what it found").toMatchObject({ verdict: "tripped", action: "mask", check: "pii", detectors: "card", findings: 1 });

  // The runs list shows the masked task.
  await page.goto(`/runs?graph=${graph}`);
  await expect(page.getByTestId("run-row")).toContainText("[redacted card]");
  expectNoCard((await page.locator("body").textContent()) ?? "", "the runs list");
});

test("a tool guardrail sends a large transfer to the inbox; the approver sees which guardrail held it, approves, and the run completes", async ({ browser }) => {
  test.setTimeout(120_000);
  const graph = await guardedGraph("guard-inbox", [
    { name: "large-transfers", kind: "tool_call", tools: ["ledger_*"], check: { type: "json_schema", schema: { type: "object", properties: { amount: { type: "number", maximum: 100 } } } }, action: "inbox" },
  ]);
  const memo = `guarded ${graph}`;
  const runId = await startRun(graph, `tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":250,"memo":"${memo}"}\nanswer: moved`);
  await reaches(runId, "awaiting_approval");
  // The guardrail, its check and its verdict: the schema's complaint names the field and the limit, never a value.
  const held = /held by guardrail large-transfers \(json_schema\): The text does not match the schema \(1 problem; the first: .*amount.*100\)\.$/;

  const approver = await browser.newPage({ storageState: storageStateFor("approver"), viewport: { width: 1440, height: 1000 } });
  await approver.goto("/inbox");
  // The compact row names the guardrail before the amounts; its card says which guardrail held the call and why.
  const row = approver.getByTestId("approval-row").filter({ hasText: memo });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("row-summary")).toContainText("guardrail large-transfers · amount: 250");
  await row.getByRole("button").filter({ hasText: "ledger_transfer" }).click();
  const card = approver.getByTestId("approval-card").filter({ hasText: memo });
  await expect(card.getByTestId("approval-guardrail")).toHaveText(held);
  await expect(card.getByTestId("approval-arguments")).toContainText('"amount": 250');

  // The run page's pending card says the same.
  const onRun = await browser.newPage({ storageState: storageStateFor("viewer") });
  await onRun.goto(`/runs/${encodeURIComponent(runId)}`);
  await expect(onRun.getByRole("region", { name: "Pending approvals" }).getByTestId("approval-guardrail")).toHaveText(held);

  await card.getByRole("button", { name: "Approve", exact: true }).click();
  await reaches(runId, "completed");
  const events = ((await (await builder.get(`/api/runs/${encodeURIComponent(runId)}/events?since=0`)).json()) as { events: { type: string; tool?: string; outcome?: string }[] }).events;
  expect(events.find((e) => e.type === "tool_call_completed" && e.tool === "ledger_transfer")?.outcome, "the approved transfer ran").toBe("ok");
  await Promise.all([approver.close(), onRun.close()]);
});
