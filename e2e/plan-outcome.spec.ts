// A plan that partially failed is a run outcome, not only an event (issue 22
// §1): a builder runs the seeded trip-planner graph with its hotel researcher's
// model failing (the demo model's `fail model` directive; the node fails after
// its retry, the itinerary is skipped, the flights complete), and a viewer finds
// "partially failed" in the run APIs, in the runs list's column and filter, and
// in the run header with the plan's counts.
import { expect, test } from "./fixtures";
import type { RunListPage } from "../lib/runs/schemas";
import { storageStateFor } from "./support";

test.use({ storageState: storageStateFor("viewer") });

test("a trip plan whose hotel researcher failed reads 'partially failed' in the API, the runs list's filter and the run header", async ({ page, playwright, baseURL }) => {
  test.slow();
  const tag = `partial-${Date.now().toString(36)}`;
  const builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder"), extraHTTPHeaders: { Origin: baseURL ?? "" } });
  const started = await builder.post("/api/runs", { data: { graph: "trip-planner", task: `Plan a trip to Rome (${tag})\n@hotel-researcher: fail model` } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  await builder.dispose();

  // The run completes (the flights are an answer) and its summary says how its plan ended.
  const summary = async () => ((await (await page.request.get(`/api/runs/${encodeURIComponent(runId)}`)).json()) as { run: { status: string; planOutcome: string | null } }).run;
  await expect.poll(async () => (await summary()).planOutcome, { timeout: 30_000, message: `run ${runId}'s plan ends partially failed` }).toBe("partially_failed");
  await expect.poll(async () => (await summary()).status, { message: "a partially failed plan's run completes" }).toBe("completed");
  const listed = (await (await page.request.get("/api/runs?graph=trip-planner&limit=100")).json()) as { runs: { runId: string; planOutcome: string | null }[] };
  expect(listed.runs.find((r) => r.runId === runId)?.planOutcome, "GET /api/runs carries the outcome").toBe("partially_failed");

  // The list's API filters by it, and refuses an outcome that does not exist, naming the parameter.
  const partial = (await (await page.request.get("/api/runs/list?planOutcome=partially_failed&pageSize=200")).json()) as RunListPage;
  expect(partial.rows.map((r) => r.runId)).toContain(runId);
  expect(partial.rows.every((r) => r.planOutcome === "partially_failed")).toBe(true);
  const completed = (await (await page.request.get("/api/runs/list?planOutcome=completed&pageSize=200")).json()) as RunListPage;
  expect(completed.rows.map((r) => r.runId)).not.toContain(runId);
  const refused = await page.request.get("/api/runs/list?planOutcome=partial");
  expect(refused.status()).toBe(422);
  expect(((await refused.json()) as { error: { issues: { path: string }[] } }).error.issues.map((i) => i.path)).toEqual(["planOutcome"]);

  // The list: an amber badge beside the run's "completed", a filter kept in the URL.
  await page.goto("/runs");
  await page.getByLabel("Plan outcome").selectOption("partially_failed");
  await expect(page).toHaveURL(/planOutcome=partially_failed/);
  const row = page.getByTestId("run-row").filter({ hasText: tag });
  await expect(row.getByTestId("run-status")).toHaveText("completed");
  await expect(row.getByTestId("plan-outcome-badge")).toHaveText("partially failed");
  await expect(page.getByTestId("run-row").filter({ hasNot: page.getByTestId("plan-outcome-badge") }), "the filter lists partially failed plans only").toHaveCount(0);
  await page.getByLabel("Plan outcome").selectOption("completed");
  await expect(page).toHaveURL(/planOutcome=completed/);
  await expect(page.getByTestId("run-row").filter({ hasText: tag })).toHaveCount(0);
  await page.getByLabel("Plan outcome").selectOption("partially_failed");
  await row.getByRole("link", { name: "trip-planner" }).click();

  // The run header: the outcome with the plan's counts.
  await expect(page).toHaveURL((url) => decodeURIComponent(url.pathname) === `/runs/${runId}`);
  await expect(page.getByTestId("run-plan-outcome").getByTestId("plan-outcome-badge")).toHaveText("partially failed");
  await expect(page.getByTestId("run-plan-counts")).toHaveText("1 of 3 nodes completed · 1 failed · 1 skipped");
});
