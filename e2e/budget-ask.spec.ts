// A run whose limits say onBudget "ask" reaches its token budget and waits in
// the inbox; the API refuses a grant that is not a positive whole number (422);
// the approver grants an edited amount of tokens in the inbox and the run
// completes beyond its original budget.
import path from "node:path";
import { randomUUID } from "node:crypto";
import { type APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createDb } from "../lib/db/prisma";
import type { Role } from "../lib/access/roles";
import { storageStateFor } from "./support";

type Pending = { id: string; runId: string; rootRunId: string; kind?: string; arguments: { tokens?: number }; budget?: { used: number; limit: number } };
type RunEventLike = { type: string; granted?: number; limit?: number; by?: string | null };

const BUDGET = 1000;

/** Saves an agent with a small token budget that asks for more (arranged in the database: no HTTP route creates agents). */
async function createThirstyAgent(name: string): Promise<void> {
  const dataDir = process.env.E2E_DATA_DIR ?? path.join(import.meta.dirname, "..", ".data", "e2e");
  const db = createDb(process.env.E2E_DATABASE_URL ?? `file:${path.join(dataDir, "zap.db")}`);
  const graph = {
    entryAgent: "spender",
    agents: [{ name: "spender", model: "demo/spender", tools: ["calculator"] }],
    limits: { tokenBudget: BUDGET, onBudget: "ask" },
  };
  try {
    await db.agent.create({ data: { name, description: "budget e2e", versions: { create: { version: 1, graph: JSON.stringify(graph), note: "e2e" } } } });
  } finally {
    await db.$disconnect();
  }
}

async function runOf(api: APIRequestContext, runId: string): Promise<{ status: string; output: string | null; usage: { inputTokens: number; outputTokens: number } }> {
  return ((await (await api.get(`/api/runs/${runId}`)).json()) as { run: { status: string; output: string | null; usage: { inputTokens: number; outputTokens: number } } }).run;
}

test("an approver grants more tokens to a run at its budget, and the run completes", async ({ browser, playwright, baseURL }) => {
  test.setTimeout(90_000);
  const as = (role: Role) => playwright.request.newContext({ baseURL, storageState: storageStateFor(role) });
  const [builderApi, approverApi] = await Promise.all([as("builder"), as("approver")]);
  const agent = `budget-${randomUUID().slice(0, 8)}`;
  await createThirstyAgent(agent);

  // Three model calls of 600 output tokens: the second crosses the 1,000-token budget.
  const started = await builderApi.post("/api/runs", { data: { graph: agent, task: 'tokens 600\nrepeat 2 tool calculator {"expression":"1+1"}\nanswer: spent well' } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };

  let request: Pending | undefined;
  await expect
    .poll(
      async () => {
        const { approvals } = (await (await approverApi.get("/api/approvals")).json()) as { approvals: Pending[] };
        request = approvals.find((a) => a.rootRunId === runId);
        return request?.kind;
      },
      { timeout: 30_000, message: "the run asks for more tokens" },
    )
    .toBe("budget");
  const approvalId = request?.id ?? "";
  const used = request?.budget?.used ?? 0;
  expect(used).toBeGreaterThanOrEqual(BUDGET);
  expect((await runOf(approverApi, runId)).status).toBe("awaiting_approval");

  // The API refuses a grant that is not a positive whole number, naming the problem.
  for (const tokens of [-5, 1.5]) {
    const refused = await approverApi.post(`/api/runs/${runId}/approvals/${approvalId}`, { data: { approved: true, editedArguments: { tokens } } });
    expect(refused.status(), `tokens ${tokens}`).toBe(422);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/the granted amount is invalid: tokens: must be/);
  }

  // The inbox: the request reads as a sentence; the approver grants another amount.
  const context = await browser.newContext({ storageState: storageStateFor("approver") });
  const page = await context.newPage();
  await page.goto("/inbox");
  // Its row opens the card beside the list.
  await page.getByTestId("approval-row").and(page.locator(`[data-row-for="${approvalId}"]`)).click();
  const card = page.locator(`[data-approval-id="${approvalId}"]`);
  await expect(card).toHaveAccessibleName("more tokens requested by spender");
  await expect(card.getByTestId("approval-budget")).toContainText(`spender wants more tokens: used ${used.toLocaleString("en")} of 1,000`);
  await expect(card.getByRole("button", { name: `Grant ${(request?.arguments.tokens ?? 0).toLocaleString("en")} tokens` })).toBeVisible();
  await card.getByRole("button", { name: "Grant another amount" }).click();
  const form = card.getByRole("form", { name: "Grant tokens" });
  const amount = form.getByRole("spinbutton", { name: "Tokens to grant" });
  await expect(amount).toHaveValue(String(request?.arguments.tokens));
  await amount.fill("0");
  await form.getByRole("button", { name: "Grant tokens" }).click();
  await expect(form.getByRole("alert")).toHaveText("tokens: must be at least 1");
  await amount.fill("5000");
  await expect(form).toContainText("The budget becomes 6,000 tokens.");
  await form.getByRole("button", { name: "Grant tokens" }).click();
  await expect(page.getByRole("status")).toContainText("more tokens (spender): approved");
  await expect(card).toHaveCount(0);

  // The run goes on past its original budget and completes; its trace says who granted what.
  await expect.poll(async () => (await runOf(approverApi, runId)).status, { timeout: 30_000 }).toBe("completed");
  const run = await runOf(approverApi, runId);
  expect(run.output).toBe("spent well");
  expect(run.usage.inputTokens + run.usage.outputTokens).toBeGreaterThan(BUDGET + 600);
  const { events } = (await (await approverApi.get(`/api/runs/${runId}/events?since=0`)).json()) as { events: RunEventLike[] };
  expect(events.find((e) => e.type === "budget_extended")).toMatchObject({ granted: 5000, limit: BUDGET + 5000, by: "approver@zap.local" });

  await context.close();
  await Promise.all([builderApi.dispose(), approverApi.dispose()]);
});
