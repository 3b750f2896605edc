// Comparing two runs (issue 27 §H2), as a viewer: a research-loop run and a
// fork of it whose current_time call answered differently (the fork's result
// written with another time zone: two runs whose clocks differ no longer
// differ, timestamps are not compared since issue 37 §2). From the run's
// page, "Compare with…" offers the fork; the compare page opens at the first
// divergence (that tool call, its result highlighted), says where it is, the
// counts and the deltas; "Show only differences" leaves that one row. The runs
// go on with 70 more calculator calls, so the answer carries only the steps
// around the divergence: scrolled to the end, the final steps are read lazily
// (GET /api/runs/compare/steps) and shown. The API refuses runs of different
// graphs.
import { type APIRequestContext, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";
import type { SpanRowPage } from "../lib/runs/span-rows";

test.use({ storageState: storageStateFor("viewer") });

let builder: APIRequestContext;
const tag = `compare-${Date.now()}`;
const MORE = Array.from({ length: 70 }, (_, i) => `tool calculator {"expression":"${i}+1"}`).join("\n");
const TASK = `tool calculator {"expression":"6*7"}\ntool current_time {}\n${MORE}\nanswer: done (${tag})`;

test.beforeAll(async ({ playwright, baseURL }) => {
  builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder"), extraHTTPHeaders: { Origin: baseURL ?? "" } });
});

test.afterAll(async () => {
  await builder.dispose();
});

async function finishedRun(page: Page, graph: string, task: string): Promise<string> {
  const started = await builder.post("/api/runs", { data: { graph, task } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  await expect
    .poll(async () => ((await (await page.request.get(`/api/runs/${encodeURIComponent(runId)}`)).json()) as { run: { status: string } }).run.status, { timeout: 60_000, message: `${graph} run ${runId} answers` })
    .toBe("completed");
  return runId;
}

/** A fork of `runId` at its current_time call, with a result in another time zone; the rest replays or runs as before. */
async function forkWithAnotherTime(page: Page, runId: string): Promise<string> {
  const spans = (await (await page.request.get(`/api/runs/${encodeURIComponent(runId)}/spans?limit=1000`)).json()) as SpanRowPage;
  const spanId = spans.rows.find(([, , kind, name]) => kind === "tool" && name === "current_time")?.[0];
  expect(spanId, "the run's current_time call").toBeTruthy();
  const result = JSON.stringify({ iso: "2000-01-01T00:00:00.000Z", time_zone: "Europe/Paris", local: "01/01/2000, 01:00:00" });
  const forked = await builder.post(`/api/runs/${encodeURIComponent(runId)}/fork`, { data: { spanId, editedToolResult: result } });
  expect(forked.status(), await forked.text()).toBe(201);
  const { runId: fork } = (await forked.json()) as { runId: string };
  await expect
    .poll(async () => ((await (await page.request.get(`/api/runs/${encodeURIComponent(fork)}`)).json()) as { run: { status: string } }).run.status, { timeout: 60_000, message: `fork ${fork} answers` })
    .toBe("completed");
  return fork;
}

test("two runs that differ in one tool call: the compare page opens at that step, with counts and deltas", async ({ page }) => {
  const a = await finishedRun(page, "research-loop", TASK);
  const b = await forkWithAnotherTime(page, a);

  await page.goto(`/runs/${encodeURIComponent(a)}`);
  await page.getByRole("button", { name: "Compare with…" }).click();
  await page.locator(`a[data-testid="compare-candidate"][href*="b=${encodeURIComponent(b)}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/runs/compare\\?a=${a}&b=${b}$`));

  const first = page.getByTestId("diff-first-divergence");
  await expect(first).toBeVisible();
  await expect(first).toHaveAttribute("data-status", "changed");
  await expect(first.getByTestId("diff-step-a")).toContainText("Tool call");
  await expect(first.getByTestId("diff-step-a")).toContainText("current_time");
  // Only the result differs: it is the highlighted field, on both sides, with the changed words marked.
  for (const side of ["a", "b"]) await expect(first.getByTestId(`diff-step-${side}`).locator("[data-changed]")).toHaveCount(1);
  await expect(first.getByTestId("diff-step-b").locator("[data-changed]")).toContainText("result");
  await expect(first.getByTestId("diff-added-text").first()).toBeVisible();
  const step = await first.getAttribute("data-step");
  expect(Number(step)).toBeGreaterThan(3);
  // The steps before it (task, the calculator's call and result …) are the same.
  await expect(page.locator('[data-testid="diff-row"][data-status="equal"]').first()).toBeVisible();

  await expect(page.getByTestId("diff-jump")).toHaveText(`First divergence at step ${step}`);
  await expect(page.getByTestId("diff-count-changed")).toHaveText("1 changed");
  await expect(page.getByTestId("diff-count-added")).toHaveText("0 added");
  await expect(page.getByTestId("diff-count-removed")).toHaveText("0 removed");
  await expect(page.getByTestId("diff-delta-tokens")).toHaveText(/^Δ tokens [+−]?[\d,]+$/);
  await expect(page.getByTestId("diff-delta-cost")).toHaveText("Δ cost $0");
  await expect(page.getByTestId("diff-delta-latency")).toHaveText(/^Δ latency [+−]?[\d,]+ ms$/);

  await page.getByTestId("diff-only-differences").check();
  await expect(page.getByTestId("diff-row")).toHaveCount(0);
  await expect(page.getByTestId("diff-first-divergence")).toBeVisible();

  // The last steps were not in the answer: scrolled to the end, they are read and shown.
  await page.getByTestId("diff-only-differences").uncheck();
  const rows = page.getByTestId("diff-rows");
  // Both sides in one pass: a chunk that lands after the scroll grows the rows above (placeholders
  // become steps), which can move the last row out of the rendered window until the next scroll.
  const finalRow = page.getByTestId("diff-row").filter({ has: page.getByTestId("diff-step-a").filter({ hasText: "Final" }) });
  await expect(async () => {
    await rows.evaluate((list) => list.scrollTo({ top: list.scrollHeight }));
    await expect(finalRow.getByTestId("diff-step-a")).toBeVisible({ timeout: 2_000 });
    await expect(finalRow.getByTestId("diff-step-b")).toContainText("Final", { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
});

test("the compare API refuses runs of different graphs and unknown runs, naming them", async ({ page }) => {
  const a = await finishedRun(page, "research-loop", `answer: ${tag} one`);
  const other = await finishedRun(page, "help-desk", `route billing 0.9\n@billing: answer: ${tag} billing`);
  const different = await page.request.get(`/api/runs/compare?a=${a}&b=${other}`);
  expect(different.status()).toBe(422);
  expect(((await different.json()) as { error: { message: string } }).error.message).toBe(`Runs ${a} and ${other} are of different graphs (research-loop, help-desk)`);
  const missing = await page.request.get(`/api/runs/compare?a=${a}&b=no-such-run`);
  expect(missing.status()).toBe(404);

  await page.goto(`/runs/compare?a=${a}&b=${other}`);
  await expect(page.getByTestId("alert-error")).toHaveText(`Runs ${a} and ${other} are of different graphs (research-loop, help-desk)`);
});
