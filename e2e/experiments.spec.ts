// Experiments from the browser (issue 27 §4): a 20-item dataset (created through
// the API) run on two versions of a graph from the "New experiment" form; the
// progress reaches 100 %, the version without the calculator regresses on the
// arithmetic items, and a regression opens the run diff.
import { type APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

test.use({ storageState: storageStateFor("builder") });

async function ok(response: Awaited<ReturnType<APIRequestContext["post"]>>, what: string) {
  expect(response.ok(), `${what}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as Record<string, unknown>;
}

test("run a 20-item experiment on two versions from the form and open a regression", async ({ page }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const graph = `e2e-exp-${stamp}`;
  const agentGraph = (tools: string[]) => ({ entryAgent: "main", agents: [{ name: "main", model: "demo/test", tools }], limits: { followUpWindowSeconds: 0 } });
  await ok(await page.request.post("/api/agents/import", { data: { name: graph, json: JSON.stringify(agentGraph(["calculator"])) } }), "create the graph");
  await ok(await page.request.post(`/api/agents/${graph}/versions`, { data: { baseVersion: 1, message: "v2: no calculator", graph: agentGraph([]) } }), "save v2");
  // Ten greetings (both versions answer them) and ten sums (only v1 has the calculator).
  const lines = Array.from({ length: 20 }, (_, i) =>
    i % 2 === 0 ? { task: `answer: hello ${i}`, expected_output: `hello ${i}`, tags: ["greeting"] } : { task: `tool calculator {"expression":"${i}*1000"}`, expected_output: String(i * 1000), tags: ["math"] },
  );
  const dataset = `e2e-exp-ds-${stamp}`;
  await ok(await page.request.post("/api/datasets/import", { data: { newDataset: { name: dataset }, format: "jsonl", content: lines.map((line) => JSON.stringify(line)).join("\n") } }), "import the dataset");

  await page.goto("/experiments");
  await page.getByRole("button", { name: "New experiment" }).click();
  const form = page.getByRole("form", { name: "New experiment" });
  await form.getByLabel("Name (optional)").fill(`form ${stamp}`);
  await form.getByLabel("Dataset", { exact: true }).selectOption(dataset);
  await form.getByLabel("Target 1 graph").selectOption(graph);
  await form.getByLabel("Target 1 version").selectOption("1");
  await form.getByRole("button", { name: "Add target" }).click();
  await form.getByLabel("Target 2 graph").selectOption(graph);
  await form.getByLabel("Target 2 version").selectOption("2");
  await form.getByLabel("Exact answer").uncheck();
  await form.getByLabel("Answer contains the expected output").check();
  await form.getByLabel("Threshold for contains").fill("0.9");
  await form.getByLabel("Recorded history only (no edited step)").check();
  await form.getByLabel("Concurrency").fill("8");
  await form.getByLabel("calculator", { exact: true }).check();
  await form.getByRole("button", { name: "Start experiment" }).click();

  // The experiment's page: progress to 100 %, then the arithmetic items regressed on v2.
  await expect(page).toHaveURL(/\/experiments\/exp_[A-Za-z0-9]+$/);
  const experimentId = new URL(page.url()).pathname.split("/").at(-1) ?? "";
  await expect(page.getByTestId("experiment-status")).toHaveText("completed", { timeout: 150_000 });
  await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
  const rows = page.locator('[data-testid^="experiment-row-"]');
  await expect(rows).toHaveCount(20);
  await expect(page.locator('[data-testid^="experiment-row-"][data-regression="true"]')).toHaveCount(10);
  // Nothing in these items was written by a person: every unit stood on recorded or live steps.
  await expect(page.getByTestId("summary-0-recorded")).toContainText("pass 20/20");
  await expect(page.getByTestId("summary-1-recorded")).toContainText("pass 20/20");

  // The API says the same: 40 units scored, the sums 1 on v1 and 0 on v2.
  const detail = (await (await page.request.get(`/api/experiments/${experimentId}`)).json()) as { experiment: { progress: { total: number; done: number } }; results: { task: string; targetIndex: number; status: string; scores: { scorer: string; value: number }[] }[] };
  expect(detail.experiment.progress).toMatchObject({ total: 40, done: 40 });
  const sums = detail.results.filter((r) => r.task.startsWith("tool calculator"));
  expect(sums.filter((r) => r.targetIndex === 0).map((r) => r.scores[0]?.value)).toEqual(Array(10).fill(1));
  expect(sums.filter((r) => r.targetIndex === 1).map((r) => r.scores[0]?.value)).toEqual(Array(10).fill(0));
  expect(detail.results.map((r) => r.scores.map((s) => s.scorer))).toEqual(Array(40).fill(["contains", "recorded"]));

  // Open a regression: its diff compares the v1 run with the v2 run.
  const regressed = page.locator('[data-testid^="experiment-row-"][data-regression="true"]').first();
  await regressed.getByRole("link", { name: /Open the diff of item/ }).click();
  await expect(page).toHaveURL(/\/runs\/compare\?a=[^&]+&b=.+/);

  // The list shows the experiment completed at 100 %.
  await page.goto("/experiments");
  const listed = page.getByTestId(`experiment-${experimentId}`);
  await expect(listed).toContainText("completed");
  await expect(listed.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
});
