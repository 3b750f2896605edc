// The runs list reads at a glance (issue 37 §3): at 1440 and 1280 px the table
// fits its box with the run's column stuck to the left, more columns scroll
// inside the table only, and the choice of columns survives a reload; Duration,
// Tokens and Cost sort the list by the figures it shows (an unpriced cost last);
// the graph, model and tool filters suggest values that exist; an empty search
// says what was searched and clears; a view being applied shows "Loading runs…",
// never the previous rows.
//
// Two runs are written into the ledger as the worker would (a run with a model
// that has no price cannot be started here), so each figure is known exactly.
import path from "node:path";
import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createDb } from "../lib/db/prisma";
import { writeLedgerGroup } from "../lib/run-ledger/write";
import type { LedgerBatch } from "../lib/contract/workflow";
import type { RunEvent } from "../lib/contract/types";
import { storageStateFor } from "./support";

const tag = Date.now().toString(36);
const graph = `fit-${tag}`;
const unpricedModel = `acme/fit-${tag}`;
const tool = `fit_tool_${tag}`;

type EventBody = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, "seq" | "at"> : never) : never;

/** A finished top-level run as the worker writes it: started `minutesAgo`, worked `seconds`, one model call of `tokens` on `model`. */
function finishedRun(now: number, runId: string, task: string, minutesAgo: number, seconds: number, model: string, tokens: number, routedTo: string | null = null): LedgerBatch {
  const start = now - minutesAgo * 60_000;
  const iso = (ms: number) => new Date(start + ms).toISOString();
  const bodies: EventBody[] = [
    { type: "run_started", agentName: "main", task, depth: 0 },
    { type: "inference_started", iteration: 1, model },
    { type: "tool_call_started", iteration: 1, callId: "c1", tool, arguments: "{}" },
  ];
  const events = bodies.map((e, i) => ({ ...e, seq: i + 1, at: iso(i * 10) }) as RunEvent);
  const span = { startedAt: iso(0), endedAt: iso(seconds * 1000), status: "ok" as const };
  return {
    run: { runId, rootRunId: runId, parentRunId: null, agentName: "main", task, context: {}, startedBy: "builder@zap.local", graphName: graph, agentVersionId: null },
    summary: { status: "completed", iteration: 1, usage: { inputTokens: tokens, outputTokens: 0 }, pendingApprovals: 0, lastEventSeq: events.length, messageCount: 0, generation: 0, output: "done", error: null, startedAt: iso(0), endedAt: iso(seconds * 1000), routedTo },
    events,
    spans: [
      { id: "s1", parentId: null, kind: "run", name: "main", ...span },
      { id: "s2", parentId: "s1", kind: "inference", name: model, ...span, tokens: { inputTokens: tokens, outputTokens: 0 } },
    ],
    messages: [],
    approvals: [],
  };
}

// Older, longer, free: 90 s and 100 tokens on the demo model ($0).
const SLOW = { id: `fit-slow-${tag}`, task: `slow free run ${tag}` };
// Newer, quicker, more tokens on a model without a price (unpriced, never $0); routed, so the
// Routed to column shows by default (the widest default the list has).
const QUICK = { id: `fit-quick-${tag}`, task: `quick unpriced run ${tag}` };

test.describe("the runs list fits and sorts", () => {
  test.use({ storageState: storageStateFor("builder") });

  test.beforeAll(async ({ request }) => {
    const dataDir = process.env.E2E_DATA_DIR ?? path.join(import.meta.dirname, "..", ".data", "e2e");
    const db = createDb(process.env.E2E_DATABASE_URL ?? `file:${path.join(dataDir, "zap.db")}`);
    try {
      // The quick run is the newest of the ledger (files share one server and run in any order): the unfiltered list's first page has it.
      const now = Date.now();
      await writeLedgerGroup(db, [finishedRun(now, SLOW.id, SLOW.task, 20, 90, "demo/assistant", 100), finishedRun(now, QUICK.id, QUICK.task, 0.25, 5, unpricedModel, 5_000, "escalations-specialist")]);
    } finally {
      await db.$disconnect();
    }
    // The server's deriver indexes the runs' models and tools a moment after the ledger's write.
    await expect
      .poll(async () => ((await (await request.get(`/api/runs/list?model=${encodeURIComponent(unpricedModel)}`)).json()) as { total: number }).total, { timeout: 15_000 })
      .toBe(1);
  });

  const order = (page: Page) => page.getByTestId("run-row").filter({ hasText: tag }).locator("p[title]").allTextContents();

  /** How much wider than what shows are the page, the main box, and the runs table than its own box. */
  async function overflow(page: Page) {
    return page.evaluate(() => {
      const over = (el: Element | null) => (el ? el.scrollWidth - el.clientWidth : 0);
      const table = document.querySelector('[data-testid="runs-list"] table');
      const box = table?.parentElement;
      return { document: over(document.documentElement), main: over(document.querySelector("main")), table: table && box ? Math.max(0, Math.ceil(table.getBoundingClientRect().width) - box.clientWidth) : -1 };
    });
  }

  test("fits at 1440 and 1280 px, keeps the run's column in view, and remembers the columns", async ({ page }) => {
    for (const width of [1440, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/runs");
      await expect(page.getByTestId("run-row").first()).toBeVisible();
      await expect(page.getByRole("columnheader", { name: "Routed to" })).toBeVisible();
      expect(await overflow(page), `nothing wider than the screen at ${width} px`).toEqual({ document: 0, main: 0, table: 0 });
    }
    // Every column on a narrower screen: the table scrolls in its own box, the page does not, and the run's column stays.
    await page.setViewportSize({ width: 1024, height: 900 });
    const picker = page.getByTestId("column-picker");
    await picker.locator("summary").click();
    await picker.getByRole("checkbox", { name: "Started by" }).check();
    await picker.getByRole("checkbox", { name: "Routed to" }).check();
    await picker.locator("summary").click();
    await expect(page.getByRole("columnheader", { name: "Started by" })).toBeVisible();
    const wide = await overflow(page);
    expect(wide.document + wide.main, "only the table scrolls").toBe(0);
    expect(wide.table, "all columns are wider than 1024 px").toBeGreaterThan(0);
    const box = page.getByTestId("runs-table-box");
    const runHeader = page.getByRole("columnheader", { name: "Run", exact: true });
    const before = await runHeader.boundingBox();
    await box.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    await expect.poll(async () => (await runHeader.boundingBox())?.x, { message: "the run's column sticks to the left" }).toBe(before?.x);
    await page.reload();
    await expect(page.getByRole("columnheader", { name: "Started by" }), "the choice of columns is kept").toBeVisible();
  });

  test("sorts by duration, tokens and cost, suggests filter values, and echoes an empty search", async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/runs?graph=${graph}`);
    await expect.poll(() => order(page)).toEqual([QUICK.task, SLOW.task]);
    await page.getByRole("button", { name: "Sort by duration" }).click();
    await expect(page).toHaveURL(/sort=duration&order=desc/);
    await expect.poll(() => order(page), { message: "90 s before 5 s" }).toEqual([SLOW.task, QUICK.task]);
    await page.getByRole("button", { name: "Sort by tokens" }).click();
    await expect.poll(() => order(page), { message: "5,000 tokens before 100" }).toEqual([QUICK.task, SLOW.task]);
    await page.getByRole("button", { name: "Sort by cost" }).click();
    await expect.poll(() => order(page), { message: "$0 before unpriced" }).toEqual([SLOW.task, QUICK.task]);
    await page.getByRole("button", { name: "Sort by cost" }).click();
    await expect(page).toHaveURL(/sort=cost&order=asc/);
    await expect.poll(() => order(page), { message: "unpriced stays last smallest first too" }).toEqual([SLOW.task, QUICK.task]);
    await expect(page.getByRole("columnheader", { name: /Sort by tokens/ })).toHaveAttribute("aria-sort", "ascending");

    // Suggestions: what exists, under the fields that filter by it.
    await expect(page.getByLabel("Model")).toHaveAttribute("list", "runs-model-values");
    await expect(page.getByTestId("runs-model-values").locator(`option[value="${unpricedModel}"]`)).toHaveCount(1);
    await expect(page.getByTestId("runs-tool-values").locator(`option[value="${tool}"]`)).toHaveCount(1);
    await expect(page.getByTestId("runs-graph-values").locator('option[value="support-triage"]')).toHaveCount(1);

    // An empty search says what was searched, and clears.
    const search = page.getByRole("searchbox", { name: "Search runs" });
    await search.fill(`nothing${tag}`);
    await search.press("Enter");
    await expect(page.getByTestId("no-match")).toContainText(`No runs match “nothing${tag}” · graph ${graph}`);
    await expect(page.getByText("Start one with")).toHaveCount(0);
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect(page).not.toHaveURL(/q=|graph=/);
    await expect(page.getByTestId("run-row").first()).toBeVisible();
  });

  test("a view being applied shows Loading runs…, never the previous view's rows", async ({ page }) => {
    await page.goto(`/runs?graph=${graph}`);
    await expect(page.getByTestId("run-row")).toHaveCount(2);
    // The view's answer is held until the page has been looked at.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/runs\/list\?.*view=stuck/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("navigation", { name: "Saved views" }).getByRole("link", { name: "stuck or burning" }).click();
    await expect(page).toHaveURL(/view=stuck/);
    await expect(page.getByTestId("runs-loading")).toHaveText("Loading runs…");
    await expect(page.getByTestId("run-row").filter({ hasText: tag }), "the previous view's rows are not shown as the new results").toHaveCount(0);
    release();
    await expect(page.getByTestId("runs-loading")).toHaveCount(0);
    await expect(page.getByTestId("run-row").filter({ hasText: tag }), "finished runs are not stuck").toHaveCount(0);
  });
});
