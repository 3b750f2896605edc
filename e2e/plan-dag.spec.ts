// Plan and execute on the run page (issue 17 §3): a builder runs the seeded
// trip-planner graph from the designer and follows its DAG — two researchers
// in parallel, the itinerary after both — until every node completes, then
// opens a node's own trace inline; a viewer watches a node run and complete
// without a reload, and reads a plan whose researcher failed (the itinerary
// skipped, saying why). The designer shows the graph's
// plan-and-execute settings.
import { type Page, type PlaywrightWorkerArgs } from "@playwright/test";
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

const NODES = ["flight-researcher", "hotel-researcher", "itinerary-planner"] as const;

function runIdOf(page: Page): string {
  const match = /\/runs\/([^/?#]+)/.exec(page.url());
  if (!match?.[1]) throw new Error(`not on a run page: ${page.url()}`);
  return decodeURIComponent(match[1]);
}

test.describe("as a builder", () => {
  test.use({ storageState: storageStateFor("builder") });

  test("the designer shows trip-planner's plan-and-execute settings", async ({ page }) => {
    await page.goto("/agents/trip-planner");
    const group = page.getByTestId("graph-inspector").getByRole("group", { name: "Plan and execute" });
    await expect(group.getByRole("checkbox", { name: "Plan and execute" })).toBeChecked();
    await expect(group).toContainText("trip-planner (the entry agent) plans");
    await expect(group.getByLabel("Max nodes")).toHaveValue("20");
    await expect(group.getByLabel("Nodes at once")).toHaveValue("4");
    const synthesis = group.getByLabel("Synthesis agent");
    await expect(synthesis.getByRole("option")).toHaveText(["none (the answer lists the final steps' results)", "flight-researcher", "hotel-researcher", "itinerary-planner"]);
  });

  test("runs trip-planner and follows its DAG until every node completes, then opens a node's trace inline", async ({ page }) => {
    test.slow();
    await page.goto("/agents/trip-planner");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Plan a trip" }).click();
    await dialog.getByRole("button", { name: "Start run" }).click();
    await expect(page).toHaveURL(/\/runs\//);
    const runId = runIdOf(page);

    const dag = page.getByTestId("plan-dag");
    await expect(dag, "the plan appears without a reload once the planner proposed it").toBeVisible();
    await expect(dag).toHaveAttribute("data-nodes", "3");
    for (const id of NODES) await expect(page.getByTestId(`plan-node-${id}`), `${id} ends completed`).toHaveAttribute("data-status", "completed");
    await expect(page.getByTestId("plan-outcome")).toHaveText("completed");
    await expect(page.getByTestId("plan-progress")).toHaveText("3 of 3 completed");
    // The itinerary depends on both researchers: two edges lead into it.
    await expect(dag.locator('.react-flow__edge[data-id$="->itinerary-planner"]')).toHaveCount(2);
    await expect(page.getByTestId("plan-node-flight-researcher")).toContainText("flight-researcher");
    await expect(page.getByTestId("plan-node-flight-researcher")).toContainText(/tok · \$0/);

    // Clicking a node opens its child run's trace under the DAG.
    await page.getByTestId("plan-node-itinerary-planner").click();
    const details = page.getByTestId("plan-node-details");
    await expect(details).toHaveAttribute("data-node", "itinerary-planner");
    await expect(details).toContainText("Depends on flight-researcher, hotel-researcher");
    const open = details.getByRole("link", { name: "Open run" });
    const childHref = await open.getAttribute("href");
    expect(childHref, "the node ran as a sub-run of the plan run").toMatch(/^\/runs\/.+/);
    expect(decodeURIComponent(childHref ?? "").slice("/runs/".length)).not.toBe(runId);
    const trace = details.getByTestId("plan-node-trace");
    const childRunId = decodeURIComponent((childHref ?? "").slice("/runs/".length));
    await expect(trace).toHaveAttribute("data-run", childRunId);
    const inference = trace.locator(`[data-testid="span-row"][data-kind="inference"][data-run="${childRunId}"]`).first();
    await expect(inference).toBeVisible();
    await inference.getByRole("gridcell").first().click();
    await expect(page.getByTestId("span-details")).toBeVisible();

    // Another node replaces the trace; clicking it again closes it.
    await page.getByTestId("plan-node-flight-researcher").click();
    await expect(details).toHaveAttribute("data-node", "flight-researcher");
    await page.getByTestId("plan-node-flight-researcher").click();
    await expect(page.getByTestId("plan-node-details")).toHaveCount(0);
  });
});

test.describe("as a viewer", () => {
  test.use({ storageState: storageStateFor("viewer") });

  /** Starts a trip-planner run as the builder (viewers cannot launch). */
  async function startTrip(playwright: PlaywrightWorkerArgs["playwright"], baseURL: string | undefined, task: string): Promise<string> {
    const builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder"), extraHTTPHeaders: { Origin: baseURL ?? "" } });
    const started = await builder.post("/api/runs", { data: { graph: "trip-planner", task } });
    expect(started.status(), await started.text()).toBe(201);
    const { runId } = (await started.json()) as { runId: string };
    await builder.dispose();
    return runId;
  }

  test("watches the DAG live: the itinerary runs once both researchers completed, then completes without a reload", async ({ page, playwright, baseURL }) => {
    // The itinerary's model takes 12 s: long enough to see it running and open its run (6 s ran out before the
    // edges were checked on a machine at load 20).
    const runId = await startTrip(playwright, baseURL, "Plan a trip to Lisbon\n@itinerary-planner: think 12000");
    await page.goto(`/runs/${encodeURIComponent(runId)}`);
    const itinerary = page.getByTestId("plan-node-itinerary-planner");
    await expect(itinerary).toHaveAttribute("data-status", "running");
    await expect(page.getByTestId("plan-node-flight-researcher")).toHaveAttribute("data-status", "completed");
    await expect(page.getByTestId("plan-node-hotel-researcher")).toHaveAttribute("data-status", "completed");
    await expect(page.getByTestId("plan-dag").locator(".react-flow__edge.animated"), "both edges into the running node animate").toHaveCount(2);
    await expect(page.getByTestId("plan-outcome")).toHaveCount(0);

    // The running node's own run is an agent run of the same graph: its page has a trace and no plan of its own.
    await itinerary.click();
    const childHref = await page.getByTestId("plan-node-details").getByRole("link", { name: "Open run" }).getAttribute("href");
    const child = await page.context().newPage();
    await child.goto(childHref ?? "");
    await expect(child.getByTestId("span-row").first()).toBeVisible();
    await expect(child.getByTestId("plan-dag")).toHaveCount(0);
    await expect(child.getByTestId("plan-waiting")).toHaveCount(0);
    await child.close();

    await expect(itinerary).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
    await expect(page.getByTestId("plan-dag").locator(".react-flow__edge.animated")).toHaveCount(0);
    await expect(page.getByTestId("plan-outcome")).toHaveText("completed");
  });

  test("a plan whose researcher failed shows the failure, the skipped itinerary and why, and the outcome", async ({ page, playwright, baseURL }) => {
    const runId = await startTrip(playwright, baseURL, "Plan a trip to Rome\n@hotel-researcher: fail model");

    await page.goto(`/runs/${encodeURIComponent(runId)}`);
    await expect(page.getByTestId("plan-node-flight-researcher")).toHaveAttribute("data-status", "completed");
    const hotel = page.getByTestId("plan-node-hotel-researcher");
    await expect(hotel).toHaveAttribute("data-status", "failed");
    await expect(hotel, "the node was retried once").toContainText("2 attempts");
    const itinerary = page.getByTestId("plan-node-itinerary-planner");
    await expect(itinerary).toHaveAttribute("data-status", "skipped");
    await expect(page.getByTestId("plan-outcome")).toHaveText("partially failed");
    await expect(page.getByTestId("plan-progress")).toHaveText("1 of 3 completed · 1 failed · 1 skipped");

    await itinerary.click();
    const details = page.getByTestId("plan-node-details");
    await expect(details).toContainText("dependency hotel-researcher failed");
    await expect(details).toContainText("This node has not run.");
  });
});

test.describe("a node that waits for a decision", () => {
  test.use({ storageState: storageStateFor("viewer") });

  test("shows 'waiting for approval' on its node until an approver decides, then completes", async ({ page, playwright, baseURL }) => {
    const api = (role: "builder" | "approver") => playwright.request.newContext({ baseURL, storageState: storageStateFor(role), extraHTTPHeaders: { Origin: baseURL ?? "" } });
    const builder = await api("builder");
    const name = `plan-pay-${Date.now().toString(36)}`;
    expect((await builder.post("/api/agents", { data: { name } })).status()).toBe(201);
    const graph = {
      entryAgent: "planner",
      mode: "plan-and-execute",
      plan: { concurrency: 2, nodeRetries: 0 },
      agents: [
        { name: "planner", model: "demo/planner", systemPrompt: "Split the payment." },
        { name: "payer", model: "demo/payer", description: "pays one part", systemPrompt: "Pay.", tools: ["ledger_transfer"], approvalRules: [{ pattern: "ledger_transfer", requiredRole: "approver", expiresInSeconds: 3600 }] },
      ],
      limits: { followUpWindowSeconds: 0 },
    };
    const saved = await builder.post(`/api/agents/${name}/versions`, { data: { baseVersion: 1, message: "a plan that pays", graph } });
    expect(saved.status(), await saved.text()).toBe(201);
    const plan = { nodes: [{ id: "pay", agent: "payer", objective: "pay the part", dependsOn: [] }] };
    const task = `Pay in one part\n@planner: return ${JSON.stringify(plan)}\n@payer: tool ledger_transfer {"from_account":"savings","to_account":"operating","amount":1}\n@payer: answer: paid`;
    const started = await builder.post("/api/runs", { data: { graph: name, task } });
    expect(started.status(), await started.text()).toBe(201);
    const { runId } = (await started.json()) as { runId: string };
    await builder.dispose();

    await page.goto(`/runs/${encodeURIComponent(runId)}`);
    const node = page.getByTestId("plan-node-pay");
    await expect(node).toHaveAttribute("data-status", "awaiting_approval");
    await expect(node).toContainText("waiting for approval");
    await expect(page.getByTestId("plan-progress")).toHaveText("0 of 1 completed · 1 waiting for approval");
    await node.click();
    await expect(page.getByTestId("plan-node-details").getByRole("link", { name: "Decide in the inbox" })).toHaveAttribute("href", "/inbox");

    // The approver decides from the inbox's API; the node runs on and completes on the open page.
    const approver = await api("approver");
    const pending = (await (await approver.get("/api/approvals")).json()) as { approvals: { id: string; runId: string; rootRunId: string }[] };
    const item = pending.approvals.find((a) => a.rootRunId === runId);
    expect(item, "the node's call is in the inbox").toBeDefined();
    const decided = await approver.post(`/api/runs/${encodeURIComponent(item?.runId ?? "")}/approvals/${encodeURIComponent(item?.id ?? "")}`, { data: { approved: true } });
    expect(decided.status(), await decided.text()).toBeLessThan(300);
    await approver.dispose();
    await expect(node).toHaveAttribute("data-status", "completed");
    await expect(page.getByTestId("plan-outcome")).toHaveText("completed");
  });
});
