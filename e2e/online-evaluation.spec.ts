// Online evaluation as a builder meets it (issue 40 §2): two runs of a copy of
// support-triage end before any evaluator exists; the builder creates one on the
// /evaluators page (a "contains" check, a delay of a few seconds), starts two
// more runs and sees each scored on its run page (live, with the check's score
// and "Add to dataset" for the low one) and in the runs list's Score column and
// score filter within the delay; a monitor on the evaluator's mean (below 0.8
// over an hour) fires on the overview; a backfill over the earlier window
// scores the two runs that ended before the evaluator, and its progress shows.
import { expect, test } from "./fixtures";
import type { APIRequestContext } from "@playwright/test";
import { storageStateFor } from "./support";

/** support-triage's prompts use these placeholders; a run without them is refused (422). */
const TRIAGE_CONTEXT = { company: "Acme", customer: { name: "Ada" } };

async function finishedRun(api: APIRequestContext, graph: string, task: string): Promise<string> {
  const started = await api.post("/api/runs", { data: { graph, task, context: TRIAGE_CONTEXT } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  await expect
    .poll(async () => ((await (await api.get(`/api/runs/${encodeURIComponent(runId)}`)).json()) as { run: { status: string } }).run.status, { timeout: 60_000, message: `run ${runId} answers` })
    .toBe("completed");
  return runId;
}

/** A datetime-local value to the second, in the browser's zone (the stack's, as the test's). */
function localSeconds(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

test.describe("online evaluation", () => {
  test.use({ storageState: storageStateFor("builder") });

  test("a builder's evaluator scores new runs within its delay on the run page and the runs list, a monitor on its mean fires, and a backfill scores the earlier runs", async ({ page, ownGraph }) => {
    test.setTimeout(240_000);
    const api = page.request;
    const graph = await ownGraph("support-triage");
    const name = `quality-${Date.now().toString(36)}`;
    const monitorName = `Mean of ${name}`;

    // Runs that end before the evaluator exists: only a backfill scores them.
    const windowFrom = Date.now() - 2_000;
    const earlierGood = await finishedRun(api, graph, "answer: earlier good answer");
    const earlierPoor = await finishedRun(api, graph, "answer: earlier weak answer");
    const windowTo = Date.now() + 1_000;
    await expect.poll(() => Date.now(), { message: "the backfill's window is in the past" }).toBeGreaterThan(windowTo);

    try {
      await page.goto("/evaluators");
      await page.getByRole("button", { name: "New evaluator" }).click();
      const form = page.getByRole("form", { name: "New evaluator" });
      await form.getByLabel("Name", { exact: true }).fill(name);
      await form.getByLabel("Graph", { exact: true }).fill(graph);
      await form.getByLabel("Delay (seconds after the run ends)").fill("3");
      await form.getByLabel("Sampling (%)").fill("abc");
      await expect(form.getByTestId("field-error"), "the form says what is wrong while it is typed").toContainText("expected number");
      await form.getByLabel("Sampling (%)").fill("100");
      await expect(form.getByTestId("field-error")).toHaveCount(0);
      const check = form.getByTestId("check-0");
      await check.getByLabel("Kind").selectOption({ label: "Contains text" });
      await check.getByLabel("Text (empty: the expected answer)").fill("good");
      await form.getByRole("button", { name: "Create evaluator" }).click();
      await expect(page.getByTestId("alert-success")).toContainText(`${name} is created.`);
      const row = page.getByTestId(`evaluator-row-${name}`);
      await expect(row).toContainText(graph);
      await expect(row).toContainText("contains");
      await expect(row).toContainText("100 % · 3 s");

      // Live runs after it: each scored once its delay has passed.
      const good = await finishedRun(api, graph, "answer: a good answer");
      const poor = await finishedRun(api, graph, "answer: a weak answer");

      await page.goto(`/runs/${encodeURIComponent(poor)}`);
      const evaluation = page.getByTestId("run-evaluations").getByTestId(`evaluation-${name}`);
      await expect(evaluation.getByTestId("evaluation-status"), "scored within the delay").toHaveText("scored", { timeout: 30_000 });
      await expect(evaluation.getByTestId("evaluation-mean")).toHaveText("mean 0.00");
      await expect(evaluation.getByTestId("evaluation-source")).toHaveText("live");
      await expect(evaluation.getByTestId("evaluation-score")).toContainText("contains");
      await expect(evaluation.getByTestId("evaluation-score")).toContainText("fail");
      await expect(page.getByRole("button", { name: "Add low-scored run to dataset" })).toBeVisible();

      await page.goto(`/runs?graph=${encodeURIComponent(graph)}&evaluator=${name}`);
      const listed = (runId: string) => page.getByTestId("run-row").filter({ has: page.locator(`a[href="/runs/${runId}"]`) });
      await expect(listed(good).getByTestId("run-row-score")).toHaveText("1.00", { timeout: 30_000 });
      await expect(listed(poor).getByTestId("run-row-score")).toHaveText("0.00");
      await expect(listed(poor).getByTestId("run-row-score")).toHaveAttribute("title", `${name}: 0.00`);
      await page.goto(`/runs?graph=${encodeURIComponent(graph)}&evaluator=${name}&scoreBelow=0.5`);
      await expect(listed(poor)).toBeVisible();
      await expect(page.getByTestId("run-row"), "only the low-scored run is below 0.5").toHaveCount(1);

      // A monitor on the evaluator's mean (0.5 over the last hour) fires.
      await page.goto("/monitors");
      await page.getByRole("button", { name: "New monitor" }).click();
      const monitorForm = page.getByRole("form", { name: "New monitor" });
      await monitorForm.getByLabel("Name").fill(monitorName);
      await monitorForm.getByLabel("Series").selectOption({ label: "Mean score of an online evaluator" });
      await monitorForm.getByLabel("Evaluator").fill(name);
      await monitorForm.getByLabel("Fires when").selectOption("<");
      await monitorForm.getByLabel("Threshold").fill("0.8");
      await monitorForm.getByLabel("Over the last (minutes)").fill("60");
      await monitorForm.getByLabel("Graph (optional)").fill(graph);
      await monitorForm.getByRole("button", { name: "Preview current value" }).click();
      await expect(monitorForm.getByTestId("monitor-preview")).toHaveText("Now: 0.50");
      await monitorForm.getByRole("button", { name: "Create monitor" }).click();
      await expect(page.getByTestId("alert-success")).toContainText(`${monitorName} is created.`);
      await page.goto("/");
      const alert = page.getByRole("region", { name: "Firing alerts" }).getByRole("listitem").filter({ hasText: monitorName });
      await expect(alert, "the evaluator's mean is below 0.8").toBeVisible({ timeout: 20_000 });
      await expect(alert).toContainText("0.50");
      const scoresCard = page.getByRole("region", { name: "Evaluation scores" });
      await expect(scoresCard.getByRole("row").filter({ hasText: name }).first(), "the overview charts the evaluator's scores").toBeVisible();

      // A backfill over the earlier window scores the two runs that ended before the evaluator.
      await page.goto("/evaluators");
      await row.getByRole("button", { name: "Backfill…" }).click();
      const dialog = page.getByRole("dialog", { name: `Backfill ${name}` });
      await dialog.getByLabel("Backfill from").fill(localSeconds(windowFrom));
      await dialog.getByLabel("Backfill to").fill(localSeconds(windowTo));
      await dialog.getByRole("button", { name: "Start backfill" }).click();
      await expect(page.getByTestId("alert-success")).toContainText(`${name}: backfill obf_`);
      const backfill = row.getByTestId("backfill").first();
      await expect(backfill.getByTestId("backfill-status")).toHaveText("done", { timeout: 60_000 });
      await expect(backfill.getByTestId("backfill-claimed")).toHaveText("2 runs claimed");
      await page.goto(`/runs/${encodeURIComponent(earlierPoor)}`);
      const backfilled = page.getByTestId(`evaluation-${name}`);
      await expect(backfilled.getByTestId("evaluation-source")).toHaveText(/^backfill obf_/);
      await expect(backfilled.getByTestId("evaluation-mean")).toHaveText("mean 0.00");
      await page.goto(`/runs?graph=${encodeURIComponent(graph)}&evaluator=${name}`);
      await expect(listed(earlierGood).getByTestId("run-row-score")).toHaveText("1.00");
      await expect(page.getByTestId("run-row")).toHaveCount(4);

      // Deleted with a confirm, the evaluator leaves the list.
      await page.goto("/evaluators");
      page.once("dialog", (confirm) => void confirm.accept());
      await row.getByRole("button", { name: "Delete" }).click();
      await expect(page.getByTestId("alert-success")).toContainText(`${name} is deleted.`);
      await expect(row).toHaveCount(0);
    } finally {
      // The monitor would keep firing on the overview for the files after this one.
      const monitors = (await (await api.get("/api/monitors")).json()) as { monitors?: { id: string; name: string }[] };
      for (const monitor of monitors.monitors ?? []) if (monitor.name === monitorName) await api.delete(`/api/monitors/${monitor.id}`);
    }
  });

  test("a viewer reads the evaluators without the buttons that change them", async ({ browser }) => {
    const context = await browser.newContext({ storageState: storageStateFor("viewer") });
    const page = await context.newPage();
    await page.goto("/evaluators");
    await expect(page.getByRole("table", { name: "Evaluators" })).toBeVisible();
    await expect(page.getByRole("button", { name: "New evaluator" })).toHaveCount(0);
    await expect(page.getByText("Builders and admins create and change evaluators; you can read them.")).toBeVisible();
    await context.close();
  });
});
