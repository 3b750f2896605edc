// What a viewer sees of orchestration (issue 16): a typed answer as a JSON
// tree and its repair as the engine's message; a failed typed run's schema
// errors; a router's decision in the trace, the header and the runs list; a
// handoff's divider and the receiving agent's answers in the conversation.
// Runs are started by a builder through the API (the demo model follows the
// scripted directives in each task) and read as a viewer.
import { type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import type { RunEvent } from "../lib/contract/types";
import type { RunListPage } from "../lib/runs/schemas";
import { storageStateFor } from "./support";

test.use({ storageState: storageStateFor("viewer") });

let builder: APIRequestContext;

test.beforeAll(async ({ playwright, baseURL }) => {
  builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder"), extraHTTPHeaders: { Origin: baseURL ?? "" } });
});

test.afterAll(async () => {
  await builder.dispose();
});

/** Starts a run of a seeded demo graph as the builder and waits until it ends with `status`. */
async function runToEnd(page: Page, graph: string, task: string, status: "completed" | "failed"): Promise<string> {
  const started = await builder.post("/api/runs", { data: { graph, task } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  await expect
    .poll(async () => ((await (await page.request.get(`/api/runs/${encodeURIComponent(runId)}`)).json()) as { run: { status: string } }).run.status, { timeout: 30_000, message: `${graph} run ${runId} ends ${status}` })
    .toBe(status);
  return runId;
}

/** Selects the span row of `kind` whose label starts with `label` and returns the details panel. */
async function openSpan(page: Page, kind: string, label: RegExp): Promise<Locator> {
  const row = page.locator(`[data-testid="span-row"][data-kind="${kind}"]`).first();
  await expect(row).toBeVisible();
  await row.getByTitle(label).click();
  return page.getByTestId("span-details");
}

const fact = (panel: Locator, label: string) => panel.locator(`[data-fact="${label}"]`).first();

test("a typed answer reads as a JSON tree with a raw view; the rejected first answer shows in the trace and as the engine's repair request", async ({ page }) => {
  const answer = { answer: "INV-7 was approved by finance", confidence: 0.92, sources: ["lookup_invoice"], action_required: false, escalation_reason: null };
  const runId = await runToEnd(page, "invoice-triage", `invalid 1\nreturn ${JSON.stringify(answer)}`, "completed");
  await page.goto(`/runs/${encodeURIComponent(runId)}`);

  const typed = page.getByTestId("typed-output");
  await expect(typed.getByRole("tree")).toContainText('"INV-7 was approved by finance"');
  await expect(typed.getByRole("tree")).toContainText("sources: [1 item]");
  await typed.getByRole("button", { name: "Fold sources" }).click();
  await expect(typed.getByRole("tree"), "a folded array hides its items").not.toContainText('"lookup_invoice"');
  await typed.getByRole("button", { name: "Show raw JSON" }).click();
  const raw = JSON.parse((await typed.getByTestId("typed-output-raw").textContent()) ?? "") as unknown;
  expect(raw, "the raw view is the typed answer itself").toEqual(answer);

  // The first answer broke the schema: its iteration names the errors and that a repair followed.
  const details = await openSpan(page, "iteration", /^iteration iteration 1/);
  await expect(details.getByTestId("output-invalid")).toBeVisible();
  await expect(details.getByTestId("output-invalid-outcome")).toHaveText("a repair was requested");
  await expect(page.getByTestId("marker-output_invalid")).toHaveCount(1);

  await page.getByRole("tab", { name: "Conversation" }).click();
  await expect(page.getByTestId("turn"), "the repair request does not open a turn of its own").toHaveCount(1);
  const repair = page.locator('[data-testid="engine-message"][data-purpose="repair"]');
  await expect(repair).toHaveCount(1);
  await expect(repair).toContainText("engine · repair request");
  await expect(page.getByTestId("user-message").filter({ hasText: "Your output failed validation" })).toHaveCount(0);
});

test("a typed run that never gave a valid answer shows its schema errors and its last answer", async ({ page }) => {
  const runId = await runToEnd(page, "invoice-triage", "invalid 3", "failed");
  await page.goto(`/runs/${encodeURIComponent(runId)}`);
  await expect(page.getByRole("alert").filter({ hasText: "validation_error" })).toBeVisible();
  const failure = page.getByTestId("failure-details");
  await expect(failure.getByTestId("failure-errors").getByRole("listitem").first()).toBeVisible();
  await expect(failure).toContainText("last answer (raw)");
  await expect(page.getByTestId("typed-output")).toHaveCount(0);
});

test("a router's decision shows in the trace, the header and the runs list, and is queryable in the API", async ({ page }) => {
  const tag = `routed-${Date.now()}`;
  const runId = await runToEnd(page, "help-desk", `route billing 0.4 fallback general\n@general: answer: We open at nine (${tag}).`, "completed");
  await page.goto(`/runs/${encodeURIComponent(runId)}`);
  await expect(page.getByTestId("routed-to")).toHaveText("general");
  await expect(page.getByTestId("run-output")).toContainText(`We open at nine (${tag}).`);

  const details = await openSpan(page, "routing", /^routing decision /);
  const decision = details.getByTestId("routing-decision");
  await expect(fact(decision, "target")).toHaveText("billing");
  await expect(fact(decision, "confidence")).toHaveText("0.4 (below the threshold)");
  await expect(fact(decision, "threshold")).toHaveText("0.7");
  await expect(fact(decision, "outcome")).toHaveText("confidence 0.4 is below the threshold 0.7 → fallback general, named by help-desk");
  await expect(fact(decision, "fallback named")).toHaveText("general");
  await expect(fact(decision, "chosen")).toHaveText("general");
  await expect(fact(decision, "attempt")).toHaveText("1");

  // The events API carries the decision as the trace shows it.
  const events = (await (await page.request.get(`/api/runs/${encodeURIComponent(runId)}/events?since=0`)).json()) as { events: RunEvent[] };
  const decided = events.events.find((e) => e.type === "routing_decided");
  expect(decided?.type === "routing_decided" && decided.decision).toMatchObject({ target: "billing", chosen: "general", fallbackTaken: true, threshold: 0.7 });

  // The list: a Routed to column, a filter in the URL, the same filter in the API; a name nobody was routed to matches nothing, a bad one is 422.
  await page.goto("/runs");
  await page.getByLabel("Routed agent").fill("general");
  await page.getByLabel("Routed agent").blur();
  await expect(page).toHaveURL(/routedTo=general/);
  const row = page.getByTestId("run-row").filter({ hasText: tag });
  await expect(row).toBeVisible();
  await expect(row.getByTestId("routed-to")).toHaveText("general");
  const listed = (await (await page.request.get("/api/runs/list?routedTo=general&pageSize=200")).json()) as RunListPage;
  expect(listed.rows.find((r) => r.runId === runId)?.routedTo).toBe("general");
  expect(listed.rows.every((r) => r.routedTo === "general")).toBe(true);
  const nobody = (await (await page.request.get("/api/runs/list?routedTo=no-such-agent")).json()) as RunListPage;
  expect(nobody.total).toBe(0);
  expect((await page.request.get("/api/runs/list?routedTo=two%20words")).status()).toBe(422);
});

test("a router whose every choice failed lists the agents it tried; each decision, the failure that followed and the chosen child's own trace open from the trace", async ({ page }) => {
  const task = ["route billing 0.9", "route technical 0.9", "route general 0.9", "@billing: fail model", "@technical: fail model", "@general: fail model"].join("\n");
  const runId = await runToEnd(page, "help-desk", task, "failed");
  await page.goto(`/runs/${encodeURIComponent(runId)}`);
  await expect(page.getByRole("alert").filter({ hasText: "routing_exhausted" })).toBeVisible();
  const tried = page.getByTestId("failure-attempts").getByRole("listitem");
  await expect(tried).toHaveCount(3);
  await expect(tried.nth(0)).toContainText("billing");
  await expect(tried.nth(1)).toContainText("technical");
  await expect(tried.nth(2)).toContainText("general");

  const routings = page.locator('[data-testid="span-row"][data-kind="routing"]');
  await expect(routings).toHaveCount(3);
  await routings.nth(1).getByTitle(/^routing decision /).click();
  const details = page.getByTestId("span-details");
  await expect(fact(details.getByTestId("routing-decision"), "attempt")).toHaveText("2");
  await expect(fact(details.getByTestId("routing-decision"), "target")).toHaveText("technical");
  await expect(details.getByTestId("routed-agent-failed"), "the failure of the agent it chose").toContainText("technical failed (attempt 2)");

  // The chosen child ran as a run of its own: its spans open inline under its sub-agent span.
  await page.getByRole("button", { name: "Show sub-run billing" }).click();
  await expect(page.locator('[data-testid="span-row"][data-run*=".route-1-billing-"][data-kind="run"]')).toBeVisible();

  await page.getByRole("tab", { name: "Conversation" }).click();
  await expect(page.locator('[data-testid="engine-message"][data-purpose="reroute"]'), "the router's reroute requests are the engine's").toHaveCount(2);
  await expect(page.getByTestId("turn")).toHaveCount(1);
});

test("after a handoff the conversation shows who took over and why, and names the receiving agent on its answers", async ({ page }) => {
  const reason = "the customer wants a refund";
  const runId = await runToEnd(page, "front-desk", `handoff refund-specialist: ${reason}\n@refund-specialist: answer: Your refund is on its way.`, "completed");
  await page.goto(`/runs/${encodeURIComponent(runId)}`);
  await expect(page.getByTestId("run-output")).toContainText("Your refund is on its way.");

  const details = await openSpan(page, "handoff", /^handoff /);
  const handoff = details.getByTestId("handoff");
  await expect(fact(handoff, "from")).toHaveText("front-desk");
  await expect(fact(handoff, "to")).toHaveText("refund-specialist");
  await expect(fact(handoff, "reason")).toHaveText(reason);

  await page.getByRole("tab", { name: "Conversation" }).click();
  await expect(page.getByTestId("handoff-divider")).toHaveText(`front-desk → refund-specialist: ${reason}`);
  const answers = page.getByTestId("assistant-message");
  await expect(answers.last()).toHaveAttribute("data-speaker", "refund-specialist");
  await expect(answers.last()).toContainText("assistant · refund-specialist");
  await expect(answers.first()).toHaveAttribute("data-speaker", "front-desk");
  await expect(page.locator('[data-testid="engine-message"][data-purpose="handoff"]'), "the handoff brief is the engine's, not the user's").toHaveCount(1);
  await expect(page.getByTestId("user-message")).toHaveCount(1);
});
