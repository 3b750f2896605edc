// Datasets (issue 27 §3), as a builder: two finished runs selected in the runs
// list go to a new dataset through "Add to dataset", and the dataset's page
// lists them as items; a CSV pasted with a broken line is refused, the problem
// named by its line, and nothing is imported.
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

test.use({ storageState: storageStateFor("builder") });

const tag = `ds-${Date.now()}`;

test("runs selected in the runs list become a new dataset's items; a broken CSV line is named by line", async ({ page, baseURL }) => {
  const runIds: string[] = [];
  for (const n of [1, 2]) {
    const started = await page.request.post("/api/runs", { data: { graph: "treasury", task: `answer: Balanced ${n} (${tag}).` }, headers: { Origin: baseURL ?? "" } });
    expect(started.status(), await started.text()).toBe(201);
    runIds.push(((await started.json()) as { runId: string }).runId);
  }
  for (const runId of runIds) {
    await expect
      .poll(async () => ((await (await page.request.get(`/api/runs/${encodeURIComponent(runId)}`)).json()) as { run: { status: string } }).run.status, { timeout: 30_000 })
      .toBe("completed");
  }

  await page.goto("/runs");
  const rows = page.getByTestId("run-row").filter({ hasText: tag });
  await expect(rows).toHaveCount(2);
  for (const runId of runIds) await page.getByRole("checkbox", { name: `Select run ${runId}` }).check();
  await expect(page.getByTestId("run-selection")).toContainText("2 runs selected");
  await page.getByTestId("add-to-dataset").click();
  const dialog = page.getByRole("dialog", { name: "Add to dataset" });
  await dialog.getByLabel("Dataset", { exact: true }).selectOption({ label: "New dataset…" });
  await dialog.getByLabel("New dataset name").fill(tag);
  await dialog.getByTestId("add-to-dataset-submit").click();
  await expect(dialog.getByTestId("add-to-dataset-result")).toContainText(`Added 2 items to ${tag} (version 1, 2 items)`);
  await dialog.getByRole("link", { name: "Open the dataset" }).click();

  await expect(page).toHaveURL(/\/datasets\/ds_/);
  await expect(page.getByRole("heading", { name: tag })).toBeVisible();
  const items = page.getByTestId("dataset-item");
  await expect(items).toHaveCount(2);
  await expect(items.filter({ hasText: `Balanced 1 (${tag})` })).toContainText(`answer: Balanced 1 (${tag}).`);
  await expect(items.filter({ hasText: `Balanced 2 (${tag})` })).toHaveCount(1);
  await expect(page.getByTestId("dataset-versions")).toContainText("Added 2 runs");

  const panel = page.getByTestId("import-panel");
  await panel.getByLabel("Or paste the content").fill(["task,expected_output", "fine,yes", `"broken"quote,no`, "also fine,ok"].join("\n"));
  await panel.getByTestId("import-submit").click();
  const problems = panel.getByTestId("import-problems");
  await expect(problems).toContainText("Nothing was imported: 1 line has a problem.");
  await expect(problems.getByRole("listitem")).toHaveText(["line 3: broken quotes"]);
  await page.reload();
  await expect(page.getByTestId("dataset-item")).toHaveCount(2);
});
