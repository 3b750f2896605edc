// An approver decides a run's pending call from the run page itself, without
// going through the inbox; a viewer on the same page sees the call but cannot act.
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

const TASK = 'tool ledger_transfer {"from_account":"savings","to_account":"operating","amount":3}\nanswer: moved';

test("an approver approves a waiting call on the run page and the run completes", async ({ browser, playwright, baseURL }) => {
  const builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder") });
  const started = await builder.post("/api/runs", { data: { graph: "treasury", task: TASK } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };

  const viewer = await browser.newPage({ storageState: storageStateFor("viewer") });
  await viewer.goto(`/runs/${encodeURIComponent(runId)}`);
  const viewerCard = viewer.getByRole("region", { name: "Pending approvals" }).getByTestId("approval-card");
  await expect(viewerCard).toContainText("ledger_transfer");
  await expect(viewerCard.getByRole("button", { name: "Approve" })).toHaveCount(0);

  const page = await browser.newPage({ storageState: storageStateFor("approver") });
  await page.goto(`/runs/${encodeURIComponent(runId)}`);
  const card = page.getByRole("region", { name: "Pending approvals" }).getByTestId("approval-card");
  await expect(card).toContainText('"amount": 3');
  await card.getByRole("button", { name: "Approve", exact: true }).click();
  await expect
    .poll(async () => ((await (await builder.get(`/api/runs/${encodeURIComponent(runId)}`)).json()) as { run: { status: string } }).run.status, {
      message: "the approved transfer runs and the run completes",
      timeout: 20_000,
    })
    .toBe("completed");
  // The decided call keeps its card on the run page, with what the tool did after the approval.
  const section = page.getByRole("region", { name: "Pending approvals" });
  await expect(section.getByTestId("approval-card")).toHaveCount(0);
  const result = section.getByTestId("decided-card").getByTestId("result-after-decision");
  await expect(result).toHaveAttribute("data-status", "approved");
  await expect(result).toContainText("Result after approval");
  await expect(result).not.toContainText("running ledger_transfer");
  // Pages from browser.newPage outlive the test unless closed: left open, they go on polling beside later specs.
  await Promise.all([viewer.close(), page.close(), builder.dispose()]);
});
