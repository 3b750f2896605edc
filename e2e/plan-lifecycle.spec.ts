// A plan's life beyond its happy path, on the run page (issue 22 §1): a
// builder cancels a plan run while its researchers work and every node shows
// how it ended (cancelled, with why), not "running" forever; a follow-up plans
// again and its nodes are a second set on the DAG, with child runs of their
// own, while the first turn's plan stays one click away.
import { type Page, type PlaywrightWorkerArgs } from "@playwright/test";
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

const NODES = ["flight-researcher", "hotel-researcher", "itinerary-planner"] as const;

async function startTrip(playwright: PlaywrightWorkerArgs["playwright"], baseURL: string | undefined, task: string): Promise<string> {
  const builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder"), extraHTTPHeaders: { Origin: baseURL ?? "" } });
  const started = await builder.post("/api/runs", { data: { graph: "trip-planner", task } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  await builder.dispose();
  return runId;
}

async function childRunOf(page: Page, nodeId: string): Promise<string> {
  await page.getByTestId(`plan-node-${nodeId}`).click();
  const href = await page.getByTestId("plan-node-details").getByRole("link", { name: "Open run" }).getAttribute("href");
  await page.getByTestId(`plan-node-${nodeId}`).click();
  return decodeURIComponent((href ?? "").slice("/runs/".length));
}

test.describe("as a builder", () => {
  test.use({ storageState: storageStateFor("builder") });

  test("cancels a plan run mid-flight: the running and the waiting nodes end cancelled, saying why", async ({ page, playwright, baseURL }) => {
    const runId = await startTrip(playwright, baseURL, "Plan a slow trip to Oslo\n@flight-researcher: think 60000\n@hotel-researcher: think 60000");
    await page.goto(`/runs/${encodeURIComponent(runId)}`);
    await expect(page.getByTestId("plan-node-flight-researcher")).toHaveAttribute("data-status", "running");
    await expect(page.getByTestId("plan-node-hotel-researcher")).toHaveAttribute("data-status", "running");
    await page.getByRole("button", { name: "Cancel run" }).click();
    await expect(page.getByTestId("run-status").first()).toHaveText("cancelled", { timeout: 20_000 });
    for (const id of NODES) await expect(page.getByTestId(`plan-node-${id}`), `${id} ends cancelled`).toHaveAttribute("data-status", "cancelled");
    await expect(page.getByTestId("plan-outcome")).toHaveText("cancelled — cancelled: the run was cancelled");
    await expect(page.getByTestId("plan-progress")).toHaveText("0 of 3 completed · 3 cancelled");
    await expect(page.getByTestId("plan-dag").locator(".react-flow__edge.animated"), "nothing moves any more").toHaveCount(0);
    await page.getByTestId("plan-node-itinerary-planner").click();
    await expect(page.getByTestId("plan-node-details")).toContainText("cancelled: the run was cancelled");
  });

  test("a follow-up plans again: its nodes are a second set with runs of their own, and the first plan stays one tab away", async ({ page, playwright, baseURL }) => {
    test.slow();
    const runId = await startTrip(playwright, baseURL, "Plan a 3-day trip to Paris\n@itinerary-planner: answer: Three days in Paris");
    await page.goto(`/runs/${encodeURIComponent(runId)}`);
    await expect(page.getByTestId("plan-outcome")).toHaveText("completed");
    const firstItinerary = await childRunOf(page, "itinerary-planner");

    await page.getByLabel("Follow-up message").fill("Now plan 2 days in Rome\n@itinerary-planner: answer: Two days in Rome");
    await page.getByRole("button", { name: "Send follow-up" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Follow-up sent." })).toBeVisible();
    await expect(page.getByTestId("plan-round-2")).toHaveAttribute("aria-selected", "true", { timeout: 20_000 });
    await expect(page.getByTestId("plan-round-2")).toHaveText("Plan 2 (latest)");
    for (const id of NODES) await expect(page.getByTestId(`plan-node-${id}`), `${id} of the second plan completes`).toHaveAttribute("data-status", "completed");
    const secondItinerary = await childRunOf(page, "itinerary-planner");
    expect(secondItinerary, "the second plan's node is a run of its own").not.toBe(firstItinerary);
    expect(secondItinerary).toContain(".p2.node-itinerary-planner-");

    // The first plan is still there, with its own runs.
    await page.getByTestId("plan-round-1").click();
    await expect(page.getByTestId("plan-round-1")).toHaveAttribute("aria-selected", "true");
    expect(await childRunOf(page, "itinerary-planner")).toBe(firstItinerary);
    await page.goto(`/runs/${encodeURIComponent(secondItinerary)}`);
    await page.getByRole("tab", { name: "Conversation" }).click();
    await expect(page.getByTestId("turn").first()).toContainText("Rome");
    await expect(page.getByTestId("turn").first()).not.toContainText("Paris");
  });
});
