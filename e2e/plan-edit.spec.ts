// Plans edited as a graph (issue 25 §2): while a plan waits for approval, the
// builder who started the run is told it waits for an approver (with the inbox
// link) and the run page draws the plan once. In the inbox the approver edits
// the plan on its DAG — adds a node, draws a dependency to it, draws a cycle
// that is refused and named on the canvas, deletes it — sees the diff before
// "Approve with edits" applies, and the run executes the edited plan. The
// audit shows the edit as lists of nodes and dependencies, not JSON blobs.
import path from "node:path";
import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { type Locator, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createDb } from "../lib/db/prisma";
import { dragBetween } from "./canvas";
import { storageStateFor } from "./support";

const tripPlanner = JSON.parse(readFileSync(path.join(import.meta.dirname, "..", "lib", "agents", "demo", "trip-planner.json"), "utf8")) as { plan: Record<string, unknown>; limits: Record<string, unknown> };

/** Saves trip-planner with plan approval on (arranged in the database: no HTTP route creates agents). */
async function createApprovedPlanner(name: string): Promise<void> {
  const dataDir = process.env.E2E_DATA_DIR ?? path.join(import.meta.dirname, "..", ".data", "e2e");
  const db = createDb(process.env.E2E_DATABASE_URL ?? `file:${path.join(dataDir, "zap.db")}`);
  const graph = { ...tripPlanner, plan: { ...tripPlanner.plan, approval: true }, limits: { ...tripPlanner.limits, followUpWindowSeconds: 0 } };
  try {
    await db.agent.create({ data: { name, description: "plan edit e2e", versions: { create: { version: 1, graph: JSON.stringify(graph), note: "e2e" } } } });
  } finally {
    await db.$disconnect();
  }
}

const editNode = (scope: Locator, id: string) => scope.locator(`.react-flow__node[data-id="${id}"]`);

/** Draws a dependency on the editor's canvas: from `from`'s right handle to `to`'s left handle (`to` then waits for `from`). */
async function drawDependency(page: Page, canvas: Locator, from: string, to: string) {
  await dragBetween(page, editNode(canvas, from).locator(".react-flow__handle-right"), editNode(canvas, to).locator(".react-flow__handle-left"));
}

test("a plan edited on its DAG: a node and a dependency added, a drawn cycle refused and deleted, the diff shown, the edited plan run and audited", async ({ browser, playwright, baseURL }) => {
  test.setTimeout(120_000);
  const agent = `plan-edit-${randomUUID().slice(0, 8)}`;
  await createApprovedPlanner(agent);
  const builder = await browser.newContext({ storageState: storageStateFor("builder") });
  const builderPage = await builder.newPage();
  const builderApi = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder") });
  const started = await builderApi.post("/api/runs", {
    data: { graph: agent, task: "Plan a day in Ghent\n@flight-researcher: answer: Train at 9\n@hotel-researcher: answer: Hotel Harmony and the MSK museum\n@itinerary-planner: answer: Morning train, afternoon MSK" },
  });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };

  // The builder cannot decide: told who can and where, and the waiting plan is drawn once.
  await builderPage.goto(`/runs/${encodeURIComponent(runId)}`);
  const waiting = builderPage.getByTestId("plan-waiting-approver");
  await expect(waiting).toContainText("Waiting for an approver", { timeout: 30_000 });
  await expect(waiting).not.toContainText("until you decide");
  await expect(waiting.getByRole("link", { name: "inbox" })).toHaveAttribute("href", "/inbox");
  await expect(builderPage.getByTestId("plan-awaiting-approval")).toBeVisible();
  await expect(builderPage.getByTestId("plan-dag"), "the waiting plan is drawn once").toHaveCount(1);

  const approver = await browser.newContext({ storageState: storageStateFor("approver") });
  const page = await approver.newPage();
  await page.goto("/inbox");
  // Its row (run id's last 8 characters) opens the card beside the list.
  await page.getByTestId("approval-row").filter({ hasText: `run ${runId.slice(-8)}` }).click();
  const card = page.getByTestId("approval-card").filter({ has: page.locator(`a[href*="${encodeURIComponent(runId)}"]`) });
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId("plan-dag")).toHaveAttribute("data-nodes", "3");
  await card.getByRole("button", { name: "Edit plan" }).click();
  const form = card.getByRole("form", { name: "Edit plan" });
  const canvas = form.getByTestId("plan-edit-canvas");
  await expect(canvas).toHaveAttribute("data-nodes", "3");
  await expect(card.getByTestId("plan-dag"), "while editing, the editor is the only drawing").toHaveCount(0);
  await expect(form.getByRole("button", { name: "Approve with edits" })).toBeDisabled();

  // Add a node: an agent from the graph's cards, an objective.
  const add = form.getByRole("group", { name: "Add a node" });
  await add.getByLabel("New node's agent").selectOption("hotel-researcher");
  await add.getByLabel("New node's objective").fill("Find a museum near the hotel");
  await add.getByRole("button", { name: "Add node" }).click();
  await expect(canvas).toHaveAttribute("data-nodes", "4");
  await expect(editNode(canvas, "hotel-researcher-2")).toContainText("Find a museum near the hotel");

  // Draw a dependency: the itinerary now waits for the museum too.
  await drawDependency(page, canvas, "hotel-researcher-2", "itinerary-planner");
  await expect(canvas).toHaveAttribute("data-edges", "3");
  await expect(form.getByTestId("plan-edit-valid")).toBeVisible();

  // Draw a cycle: refused, named on the canvas, approval blocked.
  await drawDependency(page, canvas, "itinerary-planner", "hotel-researcher-2");
  await expect(canvas).toHaveAttribute("data-edges", "4");
  const cycle = canvas.getByTestId("plan-edit-cycle");
  await expect(cycle).toContainText("Cycle: itinerary-planner → hotel-researcher-2 → itinerary-planner");
  await expect(editNode(canvas, "hotel-researcher-2").getByTestId("plan-edit-node-hotel-researcher-2")).toHaveAttribute("data-cycle", "true");
  await expect(form.getByRole("alert", { name: "Plan problems" })).toContainText("plan.cycle: itinerary-planner → hotel-researcher-2 → itinerary-planner");
  await expect(form.getByRole("button", { name: "Approve with edits" })).toBeDisabled();
  await cycle.getByRole("button", { name: "Delete dependency itinerary-planner → hotel-researcher-2" }).click();
  await expect(cycle).toHaveCount(0);
  await expect(canvas).toHaveAttribute("data-edges", "3");

  // The JSON view is the same plan.
  await form.getByRole("button", { name: "JSON" }).click();
  const json = JSON.parse(await form.getByLabel(/Plan \(JSON/).inputValue()) as { nodes: { id: string; dependsOn: string[] }[] };
  expect(json.nodes.find((n) => n.id === "itinerary-planner")?.dependsOn).toEqual(["flight-researcher", "hotel-researcher", "hotel-researcher-2"]);
  await form.getByRole("button", { name: "Graph" }).click();

  // "Approve with edits" shows the diff first.
  await form.getByRole("button", { name: "Approve with edits" }).click();
  const edits = form.getByRole("region", { name: "Your edits" });
  await expect(edits).toContainText("1 node added, 1 dependency added");
  await expect(edits.getByRole("region", { name: "Nodes added" })).toContainText("hotel-researcher-2 · hotel-researcher — Find a museum near the hotel");
  await expect(edits.getByRole("region", { name: "Dependencies added" })).toContainText("hotel-researcher-2 → itinerary-planner");
  await expect(edits.getByRole("region", { name: "Nodes removed" })).toHaveCount(0);
  await form.getByRole("button", { name: "Confirm: approve with these edits" }).click();
  await expect(page.getByRole("status")).toContainText("approved with edits (1 node added, 1 dependency added)");

  // The run executes the edited plan: four nodes, the new one among them, all completed.
  await builderPage.reload();
  for (const id of ["flight-researcher", "hotel-researcher", "hotel-researcher-2", "itinerary-planner"]) {
    await expect(builderPage.getByTestId(`plan-node-${id}`), `${id} runs`).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
  }
  await expect(builderPage.getByTestId("plan-dag")).toHaveAttribute("data-nodes", "4");
  await expect(builderPage.getByTestId("plan-waiting-approver")).toHaveCount(0);

  // The audit shows the edit as a structured diff.
  await page.goto("/inbox/audit?tool=plan");
  const row = page.getByTestId("audit-row").filter({ has: page.locator(`a[href^="/runs/${encodeURIComponent(runId)}?"]`) });
  const audited = row.getByTestId("audit-plan-edit");
  await expect(audited).toContainText("Approved with edits: 1 node added, 1 dependency added");
  await expect(audited.getByRole("region", { name: "Nodes added" })).toContainText("hotel-researcher-2 · hotel-researcher — Find a museum near the hotel");
  await expect(audited.getByRole("region", { name: "Dependencies added" })).toContainText("hotel-researcher-2 → itinerary-planner");
  await expect(row, "no JSON blob of the plan").not.toContainText('{"plan"');

  await Promise.all([builder.close(), approver.close(), builderApi.dispose()]);
});
