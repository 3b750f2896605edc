// "Fork from here" (issue 27, H1), as a builder: a finished research-loop run,
// forked at its calculator call with an edited result. The fork opens, says
// what it is a fork of, shows the steps before the fork point as replayed (the
// first model call cost nothing), and "Compare with origin" opens the compare
// page at the first divergence: that tool call's result.
import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

test.use({ storageState: storageStateFor("builder") });

const tag = `fork-${Date.now()}`;
const TASK = `tool calculator {"expression":"6*7"}\ntool current_time {}\nanswer: done (${tag})`;

async function status(page: Page, runId: string): Promise<string> {
  return ((await (await page.request.get(`/api/runs/${encodeURIComponent(runId)}`)).json()) as { run: { status: string } }).run.status;
}

test("fork a finished run at a tool result with an edited result: replayed steps, the edited one marked as edited, then the first divergence at that step", async ({ page }) => {
  const started = await page.request.post("/api/runs", { data: { graph: "research-loop", task: TASK } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId: origin } = (await started.json()) as { runId: string };
  await expect.poll(() => status(page, origin), { timeout: 30_000, message: `run ${origin} answers` }).toBe("completed");

  await page.goto(`/runs/${encodeURIComponent(origin)}`);
  await page.locator('[data-testid="span-row"][data-kind="tool"]').first().getByTitle(/calculator/).click();
  const details = page.getByTestId("span-details");
  await details.getByRole("button", { name: "Fork from here" }).click();
  const dialog = page.getByRole("dialog", { name: "Fork from here" });
  await expect(dialog.getByLabel("Version")).toBeVisible();
  await dialog.getByLabel("Edit the tool's result").check();
  const edit = dialog.getByLabel(/Edited result/);
  // The recorded result is where the edit starts.
  await expect(edit).toHaveValue(/42/);
  await edit.fill('{"result":43}');
  await dialog.getByRole("button", { name: "Start fork" }).click();

  await expect(page).not.toHaveURL(new RegExp(`/runs/${origin}$`));
  await expect(page).toHaveURL(/\/runs\/[^/?]+$/);
  const fork = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
  await expect(page.getByTestId("fork-of")).toContainText(origin);
  await expect.poll(() => status(page, fork), { timeout: 30_000, message: `fork ${fork} answers` }).toBe("completed");

  // The first model call was replayed from the origin: marked, and it cost nothing.
  await page.reload();
  await page.locator('[data-testid="span-row"][data-kind="inference"]').first().getByTitle(/demo\//).click();
  await expect(page.getByTestId("span-details").getByTestId("span-replayed")).toHaveText("replayed");
  const events = (await (await page.request.get(`/api/runs/${encodeURIComponent(fork)}/events`)).json()) as {
    events: { type: string; tool?: string; result?: string; replayed?: boolean; edited?: { by: string; at: string }; usage?: { inputTokens: number } }[];
  };
  const calculator = events.events.find((e) => e.type === "tool_call_completed" && e.tool === "calculator");
  // The edited result is the builder's, not a recording (issue 36 §2): marked edited, by whom, never "replayed".
  expect(calculator).toMatchObject({ result: '{"result":43}', edited: { by: "builder@zap.local" } });
  expect(calculator?.replayed).toBeUndefined();
  await page.locator('[data-testid="span-row"][data-kind="tool"]').first().getByTitle(/calculator/).click();
  await expect(page.getByTestId("span-details").getByTestId("span-edited")).toHaveText("edited by builder@zap.local");
  expect(events.events.find((e) => e.type === "inference_completed")).toMatchObject({ replayed: true, usage: { inputTokens: 0 } });

  await page.getByRole("link", { name: "Compare with origin" }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/compare\\?a=${origin}&b=${fork}$`));
  const first = page.getByTestId("diff-first-divergence");
  await expect(first).toBeVisible();
  await expect(first.getByTestId("diff-step-a")).toContainText("calculator");
  await expect(first.getByTestId("diff-step-b")).toContainText("43");

  // The origin lists its fork.
  await page.goto(`/runs/${encodeURIComponent(origin)}`);
  await page.getByTestId("forks-of-run").locator("summary").click();
  await expect(page.getByTestId("forks-of-run").getByRole("link", { name: fork })).toBeVisible();
});
