// Feedback (issue 27 §5), as a viewer: a thumbs down with a comment on a
// run's model-call span shows in the trace (counts and the comment), and the
// runs list filtered by feedback=down lists that run.
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

test.use({ storageState: storageStateFor("viewer") });

const tag = `fb-${Date.now()}`;

test("thumbs down with a comment on a span shows in the trace; the runs list filtered by feedback=down lists the run", async ({ page, playwright, baseURL }) => {
  const builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder"), extraHTTPHeaders: { Origin: baseURL ?? "" } });
  const started = await builder.post("/api/runs", { data: { graph: "treasury", task: `answer: All balanced (${tag}).` } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  await builder.dispose();
  await expect
    .poll(async () => ((await (await page.request.get(`/api/runs/${encodeURIComponent(runId)}`)).json()) as { run: { status: string } }).run.status, { timeout: 30_000 })
    .toBe("completed");

  await page.goto(`/runs/${encodeURIComponent(runId)}`);
  await page.locator('[data-testid="span-row"][data-kind="inference"]').last().getByTitle(/demo\/treasurer/).click();
  const widget = page.getByTestId("span-details").getByTestId("span-feedback");
  await widget.getByRole("button", { name: "Thumbs down on this span" }).click();
  await widget.getByLabel("Feedback comment on this span").fill(`Should have checked the refunds balance (${tag}).`);
  await widget.getByRole("button", { name: "Send feedback" }).click();
  await expect(widget.getByTestId("feedback-counts")).toHaveText("0 up · 1 down");
  await expect(widget.getByTestId("feedback-comments")).toContainText(`viewer@zap.local: Should have checked the refunds balance (${tag}).`);
  await expect(widget.getByRole("button", { name: "Thumbs down on this span" })).toHaveAttribute("aria-pressed", "true");

  // Still there after a reload (read from the server), and the run-level widget is separate.
  await page.reload();
  await page.locator('[data-testid="span-row"][data-kind="inference"]').last().getByTitle(/demo\/treasurer/).click();
  await expect(page.getByTestId("span-details").getByTestId("feedback-comments")).toContainText(tag);
  await expect(page.getByTestId("run-feedback").getByTestId("feedback-counts")).toHaveText("0 up · 0 down");

  await page.goto("/runs");
  await page.getByLabel("Feedback").selectOption("down");
  await expect(page).toHaveURL(/feedback=down/);
  await expect(page.locator(`a[href="/runs/${runId}"]`).first()).toBeVisible();
  await page.getByLabel("Feedback").selectOption("none");
  await expect(page).toHaveURL(/feedback=none/);
  await expect(page.locator(`a[href="/runs/${runId}"]`)).toHaveCount(0);
});
