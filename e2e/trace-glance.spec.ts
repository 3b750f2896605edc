// The Trace tab at a glance (issue 37 §3), at 1440×900 with a span's panel open:
// while a demo model writes its answer, the open model span's panel shows the
// text so far with a token count that grows, the running row keeps that text
// in its name cell (never drawn past its bar), and the header's live count
// rises while the text is partial (then the ledger's count stands when the run
// ends); a run that waited for an approval has the wait broken out of the
// time axis ("⋯ … waiting for approval"), every bar's duration is whole inside
// the pane, no axis label wraps, and the pane is as tall as its rows.
import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

const VIEWPORT = { width: 1440, height: 900 };

/** The run header's token count and status, read together. */
async function headerTokens(page: Page): Promise<{ tokens: number; status: string }> {
  const tokens = Number(await page.getByTestId("usage-self").getAttribute("data-tokens", { timeout: 2_000 }));
  const status = (await page.getByTestId("run-status").first().textContent({ timeout: 2_000 })) ?? "";
  return { tokens, status };
}

test("a streaming call grows in its span's panel and the header; an approval wait is broken out of a waterfall whose labels fit", async ({ browser, playwright, baseURL }) => {
  test.setTimeout(90_000);
  const builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder") });
  const approver = await playwright.request.newContext({ baseURL, storageState: storageStateFor("approver") });
  // The approval run starts first: its wait grows while the streaming run is watched.
  const amount = 7000 + Math.floor(Math.random() * 1000);
  const waiting = await builder.post("/api/runs", { data: { graph: "treasury", task: `tool ledger_transfer {"from_account":"savings","to_account":"operating","amount":${amount}}\nanswer: moved ${amount}` } });
  expect(waiting.status(), await waiting.text()).toBe(201);
  const { runId: approvalRun } = (await waiting.json()) as { runId: string };

  const words = Array.from({ length: 90 }, (_, i) => `streamed${i + 1}`);
  // 3 s of thinking (time to open the page and the span), then 3 words per 400 ms (about 12 s): on a machine
  // 2.5 times slower, 4.5 s of streaming ended before the panel was read.
  const streaming = await builder.post("/api/runs", { data: { graph: "treasury", task: `think 3000\nstream 400\nanswer: ${words.join(" ")}` } });
  expect(streaming.status(), await streaming.text()).toBe(201);
  const { runId } = (await streaming.json()) as { runId: string };

  const page = await browser.newPage({ storageState: storageStateFor("builder"), viewport: VIEWPORT });
  await test.step("the open model span's panel and the header follow the answer as it is written", async () => {
    await page.goto(`/runs/${runId}`);
    await expect(page.getByRole("tab", { name: "Trace" })).toHaveAttribute("aria-selected", "true");
    const open = page.locator('[data-testid="span-row"][data-kind="inference"][data-status="running"]').first();
    await open.getByRole("button", { name: /model call/ }).first().click();
    const panel = page.getByTestId("span-details");
    const output = panel.getByTestId("span-live-output");
    await expect.soft(output, "the panel shows the text so far").toContainText("streamed1 ");
    const count = panel.getByTestId("span-live-tokens");
    const first = Number(await count.getAttribute("data-tokens", { timeout: 5_000 }).catch(() => "0"));
    await expect.soft.poll(async () => Number(await count.getAttribute("data-tokens", { timeout: 2_000 })), { message: "the panel's token count grows with the text", timeout: 10_000 }).toBeGreaterThan(first);
    // No fallback: a panel without the text fails here, it does not pass with nothing to check.
    const partial = await output.textContent({ timeout: 2_000 });
    expect.soft(partial, "the panel has the text so far").toContain("streamed1 ");
    expect.soft(partial, "the panel showed the answer before it was complete").not.toContain(words.at(-1));
    // The text so far is not drawn past the bar: the running call's timeline holds what is drawn in it, and the
    // live text stays inside its own cell (the name column, cut with an ellipsis).
    const drawn = await open.evaluate((row) => {
      const timeline = row.querySelectorAll('[role="gridcell"]')[1];
      const text = row.querySelector('[data-testid="span-live-text"]');
      const cell = text?.closest('[role="gridcell"]');
      const box = text?.getBoundingClientRect();
      const cellBox = cell?.getBoundingClientRect();
      return {
        text: text?.textContent ?? null,
        scroll: timeline?.scrollWidth ?? Number.POSITIVE_INFINITY,
        client: timeline?.clientWidth ?? 0,
        inside: box && cellBox ? { left: box.left - cellBox.left, right: cellBox.right - box.right } : null,
      };
    }, undefined, { timeout: 2_000 });
    expect.soft(drawn.text, "the running call's row shows the text so far").toMatch(/streamed\d+/);
    expect.soft(drawn.text ?? "", "read while the answer streams").not.toContain(words.at(-1));
    expect.soft(drawn.scroll, "the running call's timeline holds everything drawn in it").toBeLessThanOrEqual(drawn.client);
    expect.soft(drawn.inside?.left ?? -1, "the live text starts inside its cell").toBeGreaterThanOrEqual(-0.5);
    expect.soft(drawn.inside?.right ?? -1, "the live text ends inside its cell").toBeGreaterThanOrEqual(-0.5);
    // The header's own live count ("incl. ≈ 12 being written") is there and rises while the panel's text is still
    // partial: not the ledger's count once the call is stored. The header is read before the panel, so a
    // partial text read after it means the header's figure was taken while the answer was being written.
    const live = page.getByTestId("usage-live").first();
    const liveWhilePartial = async (): Promise<number> => {
      const shown = (await live.isVisible()) ? await live.textContent({ timeout: 1_000 }) : null;
      // The panel's text gone (the call is stored) or whole: the answer is complete, too late to count as live.
      const text = await output.textContent({ timeout: 2_000 }).catch(() => null);
      if (text === null || text.includes(words.at(-1) ?? "")) return -1;
      return shown === null ? 0 : Number(shown.replace(/\D/g, ""));
    };
    let firstLive = 0;
    await expect
      .soft.poll(async () => (firstLive = await liveWhilePartial()), { message: "the header counts the tokens being written while the answer is partial", timeout: 10_000 })
      .toBeGreaterThan(0);
    await expect.soft.poll(liveWhilePartial, { message: "the header's live count rises while the answer is partial", timeout: 10_000 }).toBeGreaterThan(firstLive);
    await expect(page.getByTestId("run-status").first()).toHaveText("completed", { timeout: 20_000 });
    // Reconciled: once the call is stored, the header says the ledger's count, not the estimate.
    const run = (await (await builder.get(`/api/runs/${runId}`)).json()) as { run: { usage: { inputTokens: number; outputTokens: number } } };
    await expect.poll(async () => (await headerTokens(page)).tokens).toBe(run.run.usage.inputTokens + run.run.usage.outputTokens);
  });

  await test.step("an approval wait is broken out of the axis; durations and ticks are whole; the pane fits its rows", async () => {
    const { approvals } = (await (await approver.get("/api/approvals")).json()) as { approvals: { id: string; runId: string }[] };
    const approval = approvals.find((a) => a.runId === approvalRun);
    expect(approval, "the transfer waits for an approver").toBeDefined();
    const decided = await approver.post(`/api/runs/${approvalRun}/approvals/${approval?.id ?? ""}`, { data: { approved: true } });
    expect(decided.status(), await decided.text()).toBe(200);
    await page.goto(`/runs/${approvalRun}`);
    await expect(page.getByTestId("run-status").first()).toHaveText("completed", { timeout: 20_000 });
    // A span's panel is open, as a user reading the trace has it: the timeline is at its narrowest.
    await page.locator('[data-testid="span-row"][data-kind="approval_wait"]').first().getByRole("button").first().click();
    await expect(page.getByTestId("span-details")).toBeVisible();

    const axis = page.getByTestId("time-axis");
    await expect.soft(axis.getByTestId("axis-break").first(), "the wait is cut out of the axis, saying how long").toContainText(/^⋯ \d.* waiting for approval$/);

    const waterfall = page.getByTestId("waterfall");
    const pane = await waterfall.boundingBox();
    if (!pane) throw new Error("no waterfall pane");
    // Nothing in a row's timeline is cut off: the cell holds everything drawn in it.
    const cells = await page.getByTestId("span-row").evaluateAll((rows) =>
      rows.map((row) => {
        const cell = row.querySelectorAll('[role="gridcell"]')[1];
        return { row: row.textContent ?? "", scroll: cell?.scrollWidth ?? 0, client: cell?.clientWidth ?? 0, timeline: cell?.textContent ?? "" };
      }),
    );
    for (const cell of cells) expect.soft(cell.scroll, `the timeline of "${cell.row}" holds its labels`).toBeLessThanOrEqual(cell.client);
    // Every bar says its duration; only the open follow-up window says a deadline instead.
    const timed = cells.filter((cell) => !cell.timeline.includes("open for follow-ups until"));
    const labels = await page.getByTestId("bar-duration").evaluateAll((spans) =>
      spans.map((span) => {
        const box = span.getBoundingClientRect();
        return { text: span.textContent ?? "", left: box.left, right: box.right, scroll: span.scrollWidth, client: span.clientWidth };
      }),
    );
    expect.soft(labels.length, "every bar says its duration").toBe(timed.length);
    for (const label of labels) {
      expect.soft(label.text, "a duration is a number and its unit").toMatch(/^(\d+(\.\d)? (ms|s)|\d+ min( \d+ s)?)$/);
      expect.soft(label.left, `"${label.text}" starts inside the pane`).toBeGreaterThanOrEqual(pane.x);
      expect.soft(label.right, `"${label.text}" ends inside the pane`).toBeLessThanOrEqual(pane.x + pane.width);
      expect.soft(label.scroll, `"${label.text}" is not cut`).toBeLessThanOrEqual(label.client);
    }
    // Each axis label is one line (10 px text: a wrapped one is twice as tall).
    const ticks = await axis.locator("span").evaluateAll((spans) => spans.map((s) => ({ text: s.textContent ?? "", height: s.getBoundingClientRect().height })));
    expect(ticks.length).toBeGreaterThan(1);
    for (const tick of ticks) expect.soft(tick.height, `axis label "${tick.text}" on one line`).toBeLessThan(18);
    // The pane is as tall as its rows (bounded), not a fixed box with an empty area under them.
    const grid = await page.getByRole("grid", { name: "Trace timeline" }).boundingBox();
    expect.soft(grid?.height ?? 0, `the timeline fits its ${cells.length} rows`).toBeLessThanOrEqual(cells.length * 26 + 8);
    // Nor is the pane stretched to the (taller) span panel beside it: its box is its axis and its rows.
    expect.soft(pane.height, "the pane is its axis and its rows").toBeLessThanOrEqual((grid?.height ?? 0) + 40);
  });
  await page.close();
  await builder.dispose();
  await approver.dispose();
});
