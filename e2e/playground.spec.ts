// The playground from a model call (issue 27 §1), as a builder: a treasury
// run's last model call opens in the playground from its span; editing the
// last user message and running shows the new output beside the original,
// each with its tokens; a transfer line is only proposed (the ledger does not
// move); "Save as draft" says what a draft would hold ("Nothing to save" while
// only the conversation is edited) and saves one once the temperature changes.
// e2e/improve-loop.spec.ts follows a draft to its promotion. The runs and the
// draft are on a copy of treasury of this test's own: the seeded graph, which
// other specs run, never gets a new version from here.
import { expect, test } from "./fixtures";
import type { Page } from "@playwright/test";
import { storageStateFor } from "./support";

test.use({ storageState: storageStateFor("builder") });

const tag = `pg-${Date.now()}`;

async function finishedRun(page: Page, graph: string, task: string): Promise<string> {
  const started = await page.request.post("/api/runs", { data: { graph, task } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  await expect
    .poll(async () => ((await (await page.request.get(`/api/runs/${encodeURIComponent(runId)}`)).json()) as { run: { status: string } }).run.status, { timeout: 30_000, message: `run ${runId} answers` })
    .toBe("completed");
  return runId;
}

const newestVersion = async (page: Page, graph: string) => ((await (await page.request.get(`/api/agents/${graph}/versions`)).json()) as { versions: { version: number; message: string }[] }).versions[0]!;

test("open a model call in the playground, edit the last user message, run it: both outputs side by side; save as draft", async ({ page, ownGraph }) => {
  const graph = await ownGraph("treasury");
  const runId = await finishedRun(page, graph, `answer: Nothing to move today (${tag}).`);
  await page.goto(`/runs/${encodeURIComponent(runId)}`);
  const model = page.locator('[data-testid="span-row"][data-kind="inference"]').last();
  await model.getByTitle(/demo\/treasurer/).click();
  await page.getByTestId("span-details").getByRole("link", { name: "Open in playground" }).click();
  await expect(page).toHaveURL(/\/playground\?run=.+&span=s\d+/);

  const original = page.locator('[data-testid="playground-output"][data-kind="original"]');
  await expect(original.getByTestId("output-content")).toHaveText(`Nothing to move today (${tag}).`);
  await expect(original.getByTestId("output-tokens")).toContainText(/\d+ in · \d+ out/);
  await expect(page.getByRole("textbox", { name: "System prompt" })).toHaveValue(/You manage the demo ledger/);
  await expect(page.getByLabel("Model", { exact: true })).toHaveValue("demo/treasurer");

  const lastUser = page.locator('[data-testid="playground-message"][data-role="user"]').last().getByRole("textbox");
  await lastUser.fill(`answer: Edited in the playground (${tag}).`);
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const attempt = page.locator('[data-testid="playground-output"][data-kind="attempt"]').first();
  await expect(attempt.getByTestId("output-content")).toHaveText(`Edited in the playground (${tag}).`);
  await expect(attempt.getByTestId("output-tokens")).toContainText(/\d+ in · \d+ out/);
  await expect(original.getByTestId("output-content"), "the original stays beside it").toHaveText(`Nothing to move today (${tag}).`);

  // A transfer is proposed, not executed (the integration test shows the ledger does not move).
  await lastUser.fill('tool ledger_transfer {"from_account":"refunds","to_account":"operating","amount":1}');
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(attempt.getByTestId("proposed-tool-calls")).toContainText("ledger_transfer");
  await expect(page.locator('[data-testid="playground-output"][data-kind="attempt"]')).toHaveCount(2);

  // Only messages were edited: a version would hold nothing new (issue 37 §2). The temperature is the agent's.
  await expect(page.getByTestId("draft-nothing")).toContainText("Nothing to save");
  await expect(page.getByRole("button", { name: "Save as draft" })).toBeDisabled();
  await page.getByLabel("Temperature").fill("0.6");
  const before = await newestVersion(page, graph);
  await page.getByRole("button", { name: "Save as draft" }).click();
  await expect(page.getByTestId("alert-success")).toContainText(`Saved draft version ${before.version + 1} of ${graph}`);
  const after = await newestVersion(page, graph);
  expect(after.version).toBe(before.version + 1);
  expect(after.message).toContain(`From playground, run ${runId}`);
});
