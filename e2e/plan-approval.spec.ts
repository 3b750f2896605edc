// Plan approval (issue 17 §1): a trip-planner graph with plan.approval on
// proposes its plan and waits in the inbox before any node runs. The API
// refuses an edit with a cycle (422) and decides nothing; in the inbox the
// approver sees the plan drawn and listed, the editor's JSON view refuses the same
// cycle with a clear message, and approving runs the plan to completion.
import path from "node:path";
import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { type APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createDb } from "../lib/db/prisma";
import type { Role } from "../lib/access/roles";
import { storageStateFor } from "./support";

type PlanNode = { id: string; agent: string; objective: string; dependsOn: string[] };
type Pending = { id: string; runId: string; rootRunId: string; toolName: string; arguments: { plan?: { nodes: PlanNode[] } } };

const tripPlanner = JSON.parse(readFileSync(path.join(import.meta.dirname, "..", "lib", "agents", "demo", "trip-planner.json"), "utf8")) as { plan: Record<string, unknown>; limits: Record<string, unknown> };

/** Saves trip-planner with plan approval on (arranged in the database: no HTTP route creates agents). */
async function createApprovedPlanner(name: string): Promise<void> {
  const dataDir = process.env.E2E_DATA_DIR ?? path.join(import.meta.dirname, "..", ".data", "e2e");
  const db = createDb(process.env.E2E_DATABASE_URL ?? `file:${path.join(dataDir, "zap.db")}`);
  const graph = { ...tripPlanner, plan: { ...tripPlanner.plan, approval: true }, limits: { ...tripPlanner.limits, followUpWindowSeconds: 0 } };
  try {
    await db.agent.create({ data: { name, description: "plan approval e2e", versions: { create: { version: 1, graph: JSON.stringify(graph), note: "e2e" } } } });
  } finally {
    await db.$disconnect();
  }
}

async function runOf(api: APIRequestContext, runId: string): Promise<{ status: string; output: string | null }> {
  return ((await (await api.get(`/api/runs/${runId}`)).json()) as { run: { status: string; output: string | null } }).run;
}

test("an approver approves a plan in the inbox, after the API and the editor refuse a cyclic edit, and the run completes", async ({ browser, playwright, baseURL }) => {
  test.setTimeout(90_000);
  const as = (role: Role) => playwright.request.newContext({ baseURL, storageState: storageStateFor(role) });
  const [builderApi, approverApi] = await Promise.all([as("builder"), as("approver")]);
  const agent = `plan-approval-${randomUUID().slice(0, 8)}`;
  await createApprovedPlanner(agent);

  const started = await builderApi.post("/api/runs", { data: { graph: agent, task: "Plan a 2-day trip to Ghent\n@flight-researcher: think 5000\n@hotel-researcher: think 5000\n@itinerary-planner: answer: Day 1 Gravensteen, day 2 Patershol" } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };

  let request: Pending | undefined;
  await expect
    .poll(
      async () => {
        const { approvals } = (await (await approverApi.get("/api/approvals")).json()) as { approvals: Pending[] };
        request = approvals.find((a) => a.rootRunId === runId);
        return request?.toolName;
      },
      { timeout: 30_000, message: "the plan waits for approval" },
    )
    .toBe("plan");
  const approvalId = request?.id ?? "";
  const nodes = request?.arguments.plan?.nodes ?? [];
  expect(nodes.map((n) => n.id)).toEqual(["flight-researcher", "hotel-researcher", "itinerary-planner"]);
  expect((await runOf(approverApi, runId)).status).toBe("awaiting_approval");

  // The API refuses an edited plan with a cycle, naming it; the plan stays pending.
  const cyclic = { nodes: nodes.map((n) => (n.id === "flight-researcher" ? { ...n, dependsOn: ["itinerary-planner"] } : n)) };
  const refused = await approverApi.post(`/api/runs/${runId}/approvals/${approvalId}`, { data: { approved: true, editedArguments: { plan: cyclic } } });
  expect(refused.status()).toBe(422);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/the edited plan is invalid: plan\.cycle: flight-researcher → itinerary-planner → flight-researcher/);

  const context = await browser.newContext({ storageState: storageStateFor("approver") });
  const page = await context.newPage();
  await page.goto("/inbox");
  // Its row opens the pending card beside the list (once decided, the page lists the decision under "Decided here" instead).
  await page.getByTestId("approval-row").and(page.locator(`[data-row-for="${approvalId}"]`)).click();
  const card = page.locator(`[data-testid="approval-card"][data-approval-id="${approvalId}"]`);
  await expect(card).toHaveAccessibleName("plan proposed by trip-planner");
  await expect(card.getByTestId("approval-plan")).toContainText("trip-planner proposes a plan of 3 nodes");
  await expect(card.getByTestId("plan-dag")).toHaveAttribute("data-nodes", "3");
  await expect(card.getByTestId("plan-node-itinerary-planner")).toHaveAttribute("data-status", "pending");
  await expect(card.getByRole("list", { name: "Plan nodes" }).getByRole("listitem")).toHaveCount(3);
  await expect(card.getByRole("listitem").filter({ hasText: "itinerary-planner —" })).toContainText("(after flight-researcher, hotel-researcher)");

  // The editor checks the edit as the workflow does: the same cycle is refused before anything is sent.
  await card.getByRole("button", { name: "Edit plan" }).click();
  const form = card.getByRole("form", { name: "Edit plan" });
  await form.getByRole("button", { name: "JSON" }).click();
  await form.getByLabel(/Plan \(JSON/).fill(JSON.stringify(cyclic, null, 2));
  await expect(form.getByRole("alert", { name: "Plan problems" })).toContainText("plan.cycle: flight-researcher → itinerary-planner → flight-researcher");
  await expect(form.getByRole("button", { name: "Approve with edits" })).toBeDisabled();
  await form.getByRole("button", { name: "Cancel" }).click();

  await card.getByRole("button", { name: "Approve plan" }).click();
  await expect(page.getByRole("status")).toContainText("plan (trip-planner): approved");
  await expect(card).toHaveCount(0);

  // On the run page the researchers run at once (each model call takes 5 s), then every node turns green.
  await page.goto(`/runs/${encodeURIComponent(runId)}`);
  const flights = page.getByTestId("plan-node-flight-researcher");
  const hotels = page.getByTestId("plan-node-hotel-researcher");
  await expect(flights).toHaveAttribute("data-status", "running");
  await expect(hotels, "both researchers run in parallel").toHaveAttribute("data-status", "running");
  for (const node of [flights, hotels, page.getByTestId("plan-node-itinerary-planner")]) await expect(node).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
  await page.getByTestId("plan-node-hotel-researcher").click();
  await expect(page.getByTestId("plan-node-details").getByTestId("plan-node-trace").getByTestId("span-row").first()).toBeVisible();

  await expect.poll(async () => (await runOf(approverApi, runId)).status, { timeout: 30_000, message: "the approved plan runs to the end" }).toBe("completed");
  expect((await runOf(approverApi, runId)).output).toBe("Day 1 Gravensteen, day 2 Patershol");
  // Parallel by the ledger's clock, not by two "running" badges seen within a retrying expect: each
  // researcher started before the other finished (a sequential executor gives end ≤ next start).
  const { events } = (await (await approverApi.get(`/api/runs/${encodeURIComponent(runId)}/events?since=0`)).json()) as { events: { type: string; nodeId?: string; at: string }[] };
  const span = (nodeId: string) => {
    const at = (type: string) => Date.parse(events.find((e) => e.type === type && e.nodeId === nodeId)?.at ?? "");
    return { start: at("plan_node_started"), end: at("plan_node_finished") };
  };
  const [f, h] = [span("flight-researcher"), span("hotel-researcher")];
  expect([f.start, f.end, h.start, h.end].every(Number.isFinite), "both researchers' start and end are in the ledger").toBe(true);
  expect(f.start < h.end && h.start < f.end, `researchers overlap: flights ${f.start}–${f.end}, hotels ${h.start}–${h.end}`).toBe(true);

  await context.close();
  await Promise.all([builderApi.dispose(), approverApi.dispose()]);
});
