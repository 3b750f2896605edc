// Token streaming on the run page (issue 26 §2): a user starts a demo run and
// watches its answer being written — on the open model span in the waterfall,
// then growing in the conversation — before the run ends; once the message is
// stored, the conversation shows it in full, and the page learned all of it
// from its run stream (the indicator says so), not from polling.
import path from "node:path";
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

/** The streaming run's picture in docs/observe.md is taken here, mid-answer, at the screenshots' viewport. */
const STREAMING_SCREENSHOT = path.join(import.meta.dirname, "..", "docs", "images", "streaming-run.png");

test("a demo run's answer grows on the run page as it is generated, then stands in full", async ({ browser }) => {
  test.setTimeout(90_000);
  const words = Array.from({ length: 60 }, (_, i) => `streamed${i + 1}`);
  const answer = words.join(" ");
  const page = await browser.newPage({ storageState: storageStateFor("builder"), viewport: { width: 1440, height: 900 } });
  // The model thinks for 3 s (time for the page to open), then writes 3 words per 500 ms (about 10 s): on a
  // machine 2.5 times slower, 3 s of streaming ended before the page had switched tabs.
  const started = await page.request.post("/api/runs", { data: { graph: "treasury", task: `think 3000\nstream 500\nanswer: ${answer}` } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("live-indicator")).toContainText("live · streaming");

  // The waterfall's open model span shows the text so far: its end, cut to the row (the first words are
  // off it within a second, so the row is asked for words, not for the first one).
  await expect(page.getByTestId("span-live-text").first()).toContainText(/streamed\d+ /, { timeout: 15_000 });

  await page.getByRole("tab", { name: "Conversation" }).click();
  const growing = page.getByTestId("assistant-streaming");
  await expect(growing).toContainText(/streamed\d+/);
  const partial = (await growing.textContent()) ?? "";
  expect(partial, "the answer is shown before it is complete").not.toContain(words.at(-1));
  // It grows…
  await expect(growing).toContainText("streamed30 ");
  await growing.scrollIntoViewIfNeeded();
  await page.screenshot({ path: STREAMING_SCREENSHOT, caret: "hide" });
  // …and once stored, the message stands in full and the growing text is gone.
  await expect(page.getByTestId("assistant-text").last()).toContainText(answer, { timeout: 20_000 });
  await expect(growing).toHaveCount(0);
  await expect(page.getByTestId("live-indicator")).toContainText("finished");
  await page.close();
});
