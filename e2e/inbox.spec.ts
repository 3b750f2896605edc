// The approval inbox end to end: two runs wait (one inside a sub-agent), an
// approver triages them with the keyboard, edits one call's arguments and
// rejects the other with a reason; identical calls are rejected in bulk; a
// viewer only watches and a builder is refused by the server. The inbox is
// shared with every other spec: this test finds its own calls by amounts and
// a task line unique to it, and moves the keys by as many rows as lie between.
import path from "node:path";
import { randomUUID } from "node:crypto";
import { type APIRequestContext, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createDb } from "../lib/db/prisma";
import type { Role } from "../lib/access/roles";
import { moveFocusTo } from "./inbox-keys";
import { storageStateFor } from "./support";

type Pending = { id: string; runId: string; rootRunId: string; chain: { agentName: string }[] };
type RunEventLike = { type: string; status?: string; decidedBy?: string | null; reason?: string | null; outcome?: string; result?: string; tool?: string };

const transfer = (amount: number) => `tool ledger_transfer {"from_account":"savings","to_account":"operating","amount":${amount}}`;

/** Saves an agent whose sub-agent's transfers need approval (arranged in the database: no HTTP route creates agents). */
async function createSubAgentGraph(name: string): Promise<void> {
  const dataDir = process.env.E2E_DATA_DIR ?? path.join(import.meta.dirname, "..", ".data", "e2e");
  const db = createDb(process.env.E2E_DATABASE_URL ?? `file:${path.join(dataDir, "zap.db")}`);
  const graph = {
    entryAgent: "lead",
    agents: [
      { name: "lead", model: "demo/lead", tools: [], subAgents: ["payer"] },
      { name: "payer", description: "Pays.", model: "demo/payer", tools: ["ledger_transfer"], approvalRules: [{ pattern: "ledger_transfer", requiredRole: "approver", expiresInSeconds: 3600 }] },
    ],
  };
  try {
    await db.agent.create({ data: { name, description: "inbox e2e", versions: { create: { version: 1, graph: JSON.stringify(graph), note: "e2e" } } } });
  } finally {
    await db.$disconnect();
  }
}

async function startRun(builder: APIRequestContext, agent: string, task: string): Promise<string> {
  const response = await builder.post("/api/runs", { data: { graph: agent, task } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { runId: string }).runId;
}

async function events(api: APIRequestContext, runId: string): Promise<RunEventLike[]> {
  return ((await (await api.get(`/api/runs/${runId}/events?since=0`)).json()) as { events: RunEventLike[] }).events;
}

/** Moves the keyboard focus to the one row that shows `text` (e2e/inbox-keys.ts). */
async function focusRow(page: Page, text: string): Promise<void> {
  const rows = page.getByTestId("approval-row");
  const target = rows.filter({ hasText: text });
  await expect(target, `one row shows ${text}`).toHaveCount(1);
  await moveFocusTo(page, (await target.getAttribute("data-row-for")) ?? "");
}

test("approvers triage pending calls across runs and sub-agents; viewers watch; builders are refused", async ({ browser, playwright, baseURL }) => {
  test.setTimeout(120_000);
  const as = (role: Role) => playwright.request.newContext({ baseURL, storageState: storageStateFor(role) });
  const [viewerApi, builderApi, approverApi] = await Promise.all([as("viewer"), as("builder"), as("approver")]);
  const agent = `inbox-${randomUUID().slice(0, 8)}`;
  // Unique per test run: the audit of a reused e2e data folder holds earlier runs' decisions.
  const rejectReason = `Payer must not move savings (${agent})`;
  await createSubAgentGraph(agent);
  // Amounts no other spec asks for (within the tool's 1,000,000 limit): the direct call is approved as 5 and the others are rejected, so no large sum moves.
  const unique = 1_000 + (Number.parseInt(agent.slice(-6), 16) % 9_000);
  const [directAmount, subAmount, twinAmount] = [unique * 100 + 12, unique * 100 + 7, unique * 100 + 3];
  const quickTask = `${agent} quick`;

  // Arrange: a direct call, one through a sub-agent, two identical calls, and one to approve as it is (found by its task's first line).
  const direct = await startRun(builderApi, "treasury", `${transfer(directAmount)}\nanswer: moved 12`);
  const viaSubAgent = await startRun(builderApi, agent, `message payer: ${transfer(subAmount)}\nanswer: lead is done`);
  const twins = [await startRun(builderApi, "treasury", `${transfer(twinAmount)}\nanswer: twin`), await startRun(builderApi, "treasury", `${transfer(twinAmount)}\nanswer: twin`)];
  const quick = await startRun(builderApi, "treasury", `${quickTask}\n${transfer(21)}\nanswer: quick`);
  const mine = new Set([direct, viaSubAgent, quick, ...twins]);
  let pending: Pending[] = [];
  await expect
    .poll(
      async () => {
        pending = ((await (await viewerApi.get("/api/approvals")).json()) as { approvals: Pending[] }).approvals.filter((a) => mine.has(a.rootRunId));
        return pending.length;
      },
      { timeout: 30_000, message: "all five calls wait for approval" },
    )
    .toBe(5);
  const subApproval = pending.find((a) => a.rootRunId === viaSubAgent);
  expect(subApproval?.chain.map((l) => l.agentName), "the sub-agent's call carries its parent chain").toEqual(["lead", "payer"]);
  const directApproval = pending.find((a) => a.rootRunId === direct);

  // A viewer sees the calls, read-only; a builder's decision is refused by the server.
  const viewerContext = await browser.newContext({ storageState: storageStateFor("viewer") });
  const viewerPage = await viewerContext.newPage();
  await viewerPage.goto("/inbox");
  // A laptop-wide screen lists compact rows; choosing one opens its card beside the list (docs/inbox.md).
  await viewerPage.getByTestId("approval-row").filter({ hasText: `amount: ${directAmount} ·` }).click();
  await expect(viewerPage.getByTestId("approval-card").filter({ hasText: `"amount": ${directAmount}` })).toBeVisible();
  await expect(viewerPage.getByText("Read-only: approvers and admins decide.")).toBeVisible();
  await expect(viewerPage.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await viewerContext.close();
  const refused = await builderApi.post(`/api/runs/${direct}/approvals/${directApproval?.id}`, { data: { approved: true } });
  expect(refused.status(), "a builder may not decide").toBe(403);

  // The approver's inbox: the calls as compact rows, and the live badge.
  const context = await browser.newContext({ storageState: storageStateFor("approver") });
  const page = await context.newPage();
  await page.goto("/inbox");
  await expect(page.getByTestId("approval-row").filter({ hasText: `amount: ${subAmount} ·` })).toBeVisible();
  await expect(page.getByTestId("inbox-badge")).toHaveText(/^[1-9]\d*$/);

  // Keyboard: no card has the focus until the user moves to one (a does nothing); j/k move it, x selects, e edits.
  const focused = page.getByTestId("approval-card").and(page.locator('[aria-current="true"]'));
  await expect(focused).toHaveCount(0);
  await page.keyboard.press("a");
  await expect(page.getByRole("status")).toHaveText("No card is chosen: move to one with j/k first.");
  await page.keyboard.press("j");
  const first = await focused.getAttribute("data-approval-id");
  await page.keyboard.press("j");
  await expect(focused).not.toHaveAttribute("data-approval-id", first ?? "");
  await page.keyboard.press("k");
  await expect(focused).toHaveAttribute("data-approval-id", first ?? "");
  await page.keyboard.press("x");
  await expect(focused.getByRole("checkbox")).toBeChecked();
  await page.keyboard.press("x");
  await expect(focused.getByRole("checkbox")).not.toBeChecked();

  // Approve the direct call with edited arguments: the diff is shown, bad input is caught first.
  await focusRow(page, `amount: ${directAmount} ·`);
  await expect(focused).toContainText(`"amount": ${directAmount}`);
  await page.keyboard.press("e");
  const edit = focused.getByRole("form", { name: "Edit arguments" });
  const amount = edit.getByRole("textbox", { name: /^amount/ });
  await amount.fill("-1");
  await edit.getByRole("button", { name: "Approve with edits" }).click();
  await expect(edit.getByRole("alert")).toContainText("amount: must be greater than 0");
  await amount.fill("5");
  await expect(edit.getByRole("table", { name: "Changed arguments" })).toContainText(String(directAmount));
  await edit.getByRole("button", { name: "Approve with edits" }).click();
  await expect(page.getByRole("status")).toContainText("ledger_transfer (treasurer): approved");
  await expect(page.getByTestId("approval-card").filter({ hasText: `"amount": ${directAmount}` })).toHaveCount(0);

  // A second decision on it hears who won.
  const again = await approverApi.post(`/api/runs/${direct}/approvals/${directApproval?.id}`, { data: { approved: false, reason: "late" } });
  expect(again.status()).toBe(409);
  expect(((await again.json()) as { error: { message: string } }).error.message).toContain("already approved by approver@zap.local");

  // The sub-agent's call, moved to by key (its card opens beside the list): its chain, countdown and usage.
  await focusRow(page, `amount: ${subAmount} ·`);
  const subCard = page.getByTestId("approval-card").filter({ hasText: `"amount": ${subAmount}` });
  await expect(subCard.getByTestId("approval-chain")).toHaveText(/lead\s*›\s*payer/);
  await expect(subCard.getByTestId("approval-countdown")).toHaveText(/expires in (59m|1h)/);
  await expect(subCard.getByTestId("approval-usage"), "tokens and cost so far (demo models are free)").toHaveText(/^[1-9][\d,]* tok, \$0 this run · [1-9][\d,]* tok, \$0 with its parent and sub-runs$/);

  // Reject it with a reason (r focuses the reason box).
  await page.keyboard.press("r");
  await page.keyboard.type(rejectReason);
  await focused.getByRole("button", { name: "Reject", exact: true }).click();
  await expect(page.getByRole("status")).toContainText("ledger_transfer (payer): rejected");

  // a approves the focused call once its undo window is over (e2e/inbox-keyboard.spec.ts takes one back).
  await focusRow(page, quickTask);
  await expect(focused).toContainText(quickTask);
  await page.keyboard.press("a");
  await expect(page.getByTestId("undo-toast")).toContainText("Approving ledger_transfer (treasurer");
  await expect(page.getByTestId("approval-card").filter({ hasText: quickTask })).toHaveCount(0);
  await expect.poll(async () => (await (await viewerApi.get(`/api/runs/${quick}`)).json()).run.output, { timeout: 30_000 }).toBe("quick");

  // Identical calls are grouped and rejected together.
  const group = page.getByRole("region", { name: "2 identical ledger_transfer calls" }).filter({ hasText: `amount: ${twinAmount} ·` });
  await group.getByRole("button", { name: "Select all 2" }).click();
  await page.getByRole("textbox", { name: "Reason for rejecting the selection" }).fill(`duplicate request (${agent})`);
  await page.getByRole("button", { name: "Reject selected…" }).click();
  const confirm = page.getByRole("group", { name: "Confirm: reject 2 selected" });
  await expect(confirm.getByTestId("selection-summary").getByRole("listitem"), "the selection is listed, run by run, before it applies").toHaveCount(2);
  for (const runId of twins) await expect(confirm).toContainText(`run ${runId.slice(-8)}`);
  await confirm.getByRole("button", { name: "Reject these 2" }).click();
  await expect(page.getByRole("status")).toHaveText("2 decided");

  // Both runs continue accordingly; their traces show the decisions.
  await expect.poll(async () => (await (await viewerApi.get(`/api/runs/${direct}`)).json()).run.output, { timeout: 30_000 }).toBe("moved 12");
  const directEvents = await events(viewerApi, direct);
  expect(directEvents.find((e) => e.type === "approval_decided")).toMatchObject({ status: "approved", decidedBy: "approver@zap.local" });
  expect(directEvents.find((e) => e.type === "tool_call_completed" && e.tool === "ledger_transfer")).toMatchObject({ outcome: "ok" });
  expect(directEvents.find((e) => e.type === "tool_call_completed" && e.tool === "ledger_transfer")?.result).toContain("5");
  await expect.poll(async () => (await (await viewerApi.get(`/api/runs/${viaSubAgent}`)).json()).run.output, { timeout: 30_000 }).toBe("lead is done");
  const subEvents = await events(viewerApi, subApproval?.runId ?? "");
  expect(subEvents.find((e) => e.type === "approval_decided")).toMatchObject({ status: "rejected", reason: rejectReason });

  // The audit lists every decision with its diff, and exports them as CSV.
  await page.goto(`/inbox/audit?person=approver%40zap.local`);
  await expect(page.getByTestId("audit-row").filter({ hasText: rejectReason })).toContainText("rejected");
  await expect(page.getByTestId("audit-row").filter({ has: page.getByRole("table", { name: "Changed arguments" }) }).first()).toContainText("approved");
  const csv = await (await approverApi.get("/api/approvals/audit?format=csv&outcome=rejected")).text();
  expect(csv.split("\r\n")[0]).toContain("approval_id,run_id,agent,tool,outcome");
  expect(csv).toContain(`duplicate request (${agent})`);

  await context.close();
  await Promise.all([viewerApi.dispose(), builderApi.dispose(), approverApi.dispose()]);
});
