// The README's screenshots, taken from the product itself on every e2e run so
// they never drift from what a user sees: the designer on a seeded demo agent,
// a finished run's trace, a plan run's DAG and the inbox with a pending
// approval. Each is written to docs/images/<name>.png at a fixed viewport; the
// test fails if a page does not show what its picture is meant to show.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { type APIRequestContext, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import type { Role } from "../lib/access/roles";
import { storageStateFor } from "./support";

const IMAGES_DIR = path.join(import.meta.dirname, "..", "docs", "images");
/** Wide enough that the designer's fitted canvas shows readable nodes beside the palette and the inspector. */
const VIEWPORT = { width: 1440, height: 900 };

/** A finished run with a tool call and a sub-agent conversation, so the trace has depth. */
const TRACE_TASK = 'tool lookup_order {"order_id":"A-1003"} && message billing: Is A-1003 refundable?\nanswer: A-1003 can be refunded.';
/** What support-triage's prompts ask of the context. */
const TRACE_CONTEXT = { company: "Acme", customer: { name: "Ada" } };
/** A transfer the treasury graph's rule holds for an approver. */
const TRANSFER_TASK = 'tool ledger_transfer {"from_account":"savings","to_account":"operating","amount":25}\nanswer: moved 25 to operating';

type RunSummary = { run: { status: string } };
type Pending = { id: string; rootRunId: string };

async function startRun(api: APIRequestContext, graph: string, task: string, context?: Record<string, unknown>): Promise<string> {
  const response = await api.post("/api/runs", { data: { graph, task, context } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { runId: string }).runId;
}

async function statusOf(api: APIRequestContext, runId: string): Promise<string> {
  return ((await (await api.get(`/api/runs/${encodeURIComponent(runId)}`)).json()) as RunSummary).run.status;
}

async function pendingApprovalOf(api: APIRequestContext, runId: string): Promise<string> {
  const { approvals } = (await (await api.get("/api/approvals")).json()) as { approvals: Pending[] };
  return approvals.find((a) => a.rootRunId === runId)?.id ?? "";
}

async function save(page: Page, name: string): Promise<void> {
  // Let fonts and the canvas settle (no transitions mid-frame), then shoot exactly the viewport.
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: path.join(IMAGES_DIR, `${name}.png`), animations: "disabled", caret: "hide" });
}

test("the README's screenshots: designer, run trace, plan DAG and inbox", async ({ browser, playwright, baseURL }) => {
  test.setTimeout(90_000);
  mkdirSync(IMAGES_DIR, { recursive: true });
  const as = (role: Role) => playwright.request.newContext({ baseURL, storageState: storageStateFor(role) });
  const [builderApi, approverApi] = await Promise.all([as("builder"), as("approver")]);
  const pageAs = async (role: Role) => browser.newPage({ storageState: storageStateFor(role), viewport: VIEWPORT });

  // Everything that takes engine time starts first and works while the designer is shot.
  const [traceRun, planRun, transferRun] = await Promise.all([
    startRun(builderApi, "support-triage", TRACE_TASK, TRACE_CONTEXT),
    startRun(builderApi, "trip-planner", "Plan a 3-day trip to Paris in June"),
    startRun(builderApi, "treasury", TRANSFER_TASK),
  ]);

  const builder = await pageAs("builder");
  await builder.goto("/agents/support-triage");
  const canvas = builder.getByTestId("canvas");
  for (const agent of ["triage", "billing", "shipping"]) await expect(canvas.locator(`.react-flow__node[data-id="agent:${agent}"]`)).toBeVisible();
  await canvas.locator('.react-flow__node[data-id="agent:triage"]').click();
  await expect(builder.getByTestId("agent-inspector")).toBeVisible();
  // Fit view leaves a margin round the team; one notch of the wheel at the canvas's centre makes the nodes readable, all still in frame.
  const viewport = canvas.locator(".react-flow__viewport");
  const fitted = await viewport.evaluate((el) => (el as HTMLElement).style.transform);
  const box = await canvas.boundingBox();
  if (!box) throw new Error("the designer's canvas is not on screen");
  await builder.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await builder.mouse.wheel(0, -80);
  await expect.poll(() => viewport.evaluate((el) => (el as HTMLElement).style.transform)).not.toBe(fitted);
  await save(builder, "designer");

  await expect.poll(() => statusOf(builderApi, traceRun), { timeout: 30_000, message: "the traced run completes" }).toBe("completed");
  await builder.goto(`/runs/${encodeURIComponent(traceRun)}`);
  await expect(builder.getByTestId("run-status").first()).toHaveText("completed");
  await expect(builder.getByTestId("span-row").filter({ hasText: "lookup_order" }).first()).toBeVisible();
  await builder.getByRole("button", { name: "Show sub-run billing" }).click();
  await expect(builder.locator('[data-testid="span-row"][data-run*=".billing-"]').first()).toBeVisible();
  await builder.getByTestId("span-row").filter({ hasText: "lookup_order" }).first().getByRole("button", { name: /lookup_order/ }).first().click();
  await expect(builder.getByTestId("span-details")).toContainText("A-1003");
  // The trace, not the run's header, fills the picture.
  await builder.getByRole("tab", { name: "Trace" }).evaluate((tab) => tab.scrollIntoView({ block: "start" }));
  await save(builder, "run-trace");

  await builder.goto(`/runs/${encodeURIComponent(planRun)}`);
  const dag = builder.getByTestId("plan-dag");
  await expect(dag).toHaveAttribute("data-nodes", "3", { timeout: 30_000 });
  for (const node of ["flight-researcher", "hotel-researcher", "itinerary-planner"]) {
    await expect(builder.getByTestId(`plan-node-${node}`), `${node} ends completed`).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
  }
  await dag.scrollIntoViewIfNeeded();
  await save(builder, "plan-dag");

  let approvalId = "";
  await expect
    .poll(async () => (approvalId = await pendingApprovalOf(approverApi, transferRun)), { timeout: 30_000, message: "the transfer waits for an approver" })
    .not.toBe("");
  const approver = await pageAs("approver");
  await approver.goto("/inbox");
  // The compact list beside the chosen call's card, as a laptop-wide screen shows it.
  await approver.getByTestId("approval-row").and(approver.locator(`[data-row-for="${approvalId}"]`)).click();
  const card = approver.locator(`[data-testid="approval-card"][data-approval-id="${approvalId}"]`);
  await expect(card).toContainText("ledger_transfer");
  await expect(card).toContainText('"amount": 25');
  await save(approver, "inbox");

  // Leave nothing waiting for the specs that follow.
  const decided = await approverApi.post(`/api/runs/${encodeURIComponent(transferRun)}/approvals/${approvalId}`, { data: { approved: false, reason: "screenshot only" } });
  expect(decided.status(), await decided.text()).toBe(200);
  await Promise.all([builder.close(), approver.close(), builderApi.dispose(), approverApi.dispose()]);
});

test("the dashboard's screenshot: the last hour of this e2e run's runs", async ({ browser, playwright, baseURL }) => {
  test.setTimeout(90_000);
  mkdirSync(IMAGES_DIR, { recursive: true });
  // Runs of its own, one completed and one failed, so each chart it checks has something to draw whatever ran
  // before it: the e2e files run in a shuffled order (a run where this file came first found no failed run).
  const builderApi = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder") });
  const [completed, failed] = await Promise.all([
    startRun(builderApi, "research-loop", "answer: a completed run for the dashboard's picture"),
    startRun(builderApi, "research-loop", "fail model\na failed run for the dashboard's picture"),
  ]);
  await expect.poll(() => statusOf(builderApi, completed), { timeout: 30_000, message: "the completed run" }).toBe("completed");
  await expect.poll(() => statusOf(builderApi, failed), { timeout: 30_000, message: "the failed run" }).toBe("failed");
  await builderApi.dispose();
  const viewer = await browser.newPage({ storageState: storageStateFor("viewer"), viewport: VIEWPORT });
  await viewer.goto("/?range=1h");
  await expect(viewer.getByTestId("stat-runs-started")).not.toHaveText("0");
  for (const chart of ["runs_by_state", "started_failed", "run_latency"]) await expect(viewer.getByTestId(`chart-${chart}-plot`), `${chart} is drawn`).toBeVisible();
  // The split by trigger loads after the tiles: the picture shows it counted, not "Counting…".
  await expect(viewer.getByTestId("runs-by-trigger-manual"), "the split by trigger is counted").toBeVisible();
  await save(viewer, "dashboard");
  await viewer.close();
});
