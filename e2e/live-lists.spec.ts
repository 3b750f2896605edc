// The runs list and the inbox, live (issue 26 §2): with the list open, a run
// started elsewhere appears and its status turns to completed without a reload,
// carried by the runs feed, not by polling — once the row is there the list's
// own reads are refused, so only the feed's change can move its status. The
// inbox shows a new pending approval from the approvals feed. Bad input and
// strangers get clear errors.
import { type APIRequestContext, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import type { Role } from "../lib/access/roles";
import { storageStateFor } from "./support";

type Heard = { url: string; event: string; data: string; at: number };

/** Records every event the page's EventSources hear (test instrumentation: the app's own listeners still get them). */
async function recordFeeds(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const heard: { url: string; event: string; data: string; at: number }[] = [];
    (window as unknown as { heard: typeof heard }).heard = heard;
    const Original = window.EventSource;
    class Recording extends Original {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        for (const event of ["ready", "run", "approval", "pending", "resync"]) {
          this.addEventListener(event, (e) => heard.push({ url: String(url), event, data: (e as MessageEvent<string>).data, at: Date.now() }));
        }
      }
    }
    window.EventSource = Recording;
  });
}

const heard = (page: Page) => page.evaluate(() => (window as unknown as { heard: Heard[] }).heard);

/** A treasury task whose transfer waits for an approver; the amount tells its run apart. */
function transferTask(note: string): { task: string; amount: number } {
  const amount = 6000 + Math.floor(Math.random() * 3000);
  return { task: `tool ledger_transfer {"from_account":"savings","to_account":"operating","amount":${amount}}\nanswer: ${note} ${amount}`, amount };
}

test("the runs list shows a run started elsewhere and its completion from the feed, without a reload or a poll", async ({ browser, playwright, baseURL }) => {
  test.setTimeout(90_000);
  const as = (role: Role): Promise<APIRequestContext> => playwright.request.newContext({ baseURL, storageState: storageStateFor(role) });
  const [builder, approver] = await Promise.all([as("builder"), as("approver")]);
  const page = await browser.newPage({ storageState: storageStateFor("viewer") });
  await recordFeeds(page);
  await page.goto("/runs");
  const list = page.getByTestId("runs-list");
  await expect(list, "the runs feed is connected").toHaveAttribute("data-live", "stream");

  const { task } = transferTask("live list");
  const started = await builder.post("/api/runs", { data: { graph: "treasury", task } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  const row = page.getByTestId("run-row").filter({ hasText: task.split("\n")[0]! });
  await expect(row, "the new run appears without a reload").toBeVisible();
  await expect(row.getByTestId("run-status")).toHaveText("awaiting approval", { timeout: 30_000 });
  const events = await heard(page);
  expect(events.some((e) => e.event === "run" && e.url.endsWith("/api/runs/feed") && e.data.includes(runId)), "the feed announced the run").toBe(true);

  // From here the list cannot read itself again: a status that moves came from the feed's change.
  let refusedReads = 0;
  await page.route("**/api/runs/list**", (route) => {
    refusedReads++;
    return route.abort();
  });
  const { approvals } = (await (await approver.get("/api/approvals")).json()) as { approvals: { id: string; runId: string }[] };
  const approvalId = approvals.find((a) => a.runId === runId)?.id;
  expect(approvalId, "the run waits for its transfer's approval").toBeTruthy();
  const decided = await approver.post(`/api/runs/${runId}/approvals/${approvalId}`, { data: { approved: true } });
  expect(decided.status(), await decided.text()).toBe(200);
  await expect(row.getByTestId("run-status"), "the completion arrives through the feed").toHaveText("completed", { timeout: 30_000 });
  await expect(list).toHaveAttribute("data-live", "stream");
  expect(refusedReads, "the feed's changes asked the list to reload (refused here)").toBeGreaterThan(0);
  await page.close();
  await Promise.all([builder.dispose(), approver.dispose()]);
});

test("the inbox shows a new pending approval from the approvals feed", async ({ browser, playwright, baseURL }) => {
  test.setTimeout(90_000);
  const builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder") });
  const page = await browser.newPage({ storageState: storageStateFor("approver") });
  await recordFeeds(page);
  await page.goto("/inbox");
  const inbox = page.getByTestId("inbox");
  await expect(inbox, "the approvals feed is connected").toHaveAttribute("data-live", "stream");
  const { task, amount } = transferTask("inbox live");
  const started = await builder.post("/api/runs", { data: { graph: "treasury", task } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  await expect(page.getByTestId("approval-row").filter({ hasText: String(amount) }).first(), "the new approval's row appears").toBeVisible({ timeout: 30_000 });
  const events = await heard(page);
  expect(events.some((e) => e.event === "approval" && e.url.endsWith("/api/approvals/feed") && e.data.includes(runId)), "the feed announced the approval").toBe(true);
  await expect(inbox).toHaveAttribute("data-live", "stream");
  // Leave nothing waiting for later specs.
  const approver = await playwright.request.newContext({ baseURL, storageState: storageStateFor("approver") });
  const { approvals } = (await (await approver.get("/api/approvals")).json()) as { approvals: { id: string; runId: string }[] };
  for (const a of approvals.filter((x) => x.runId === runId)) await approver.post(`/api/runs/${runId}/approvals/${a.id}`, { data: { approved: false, reason: "e2e cleanup" } });
  await page.close();
  await Promise.all([builder.dispose(), approver.dispose()]);
});

test("the feeds refuse bad input and strangers", async ({ playwright, baseURL }) => {
  const viewer = await playwright.request.newContext({ baseURL, storageState: storageStateFor("viewer") });
  const bad = await viewer.get("/api/runs/feed?since=yesterday");
  expect(bad.status()).toBe(422);
  expect(await bad.text()).toContain("since");
  const extra = await viewer.get("/api/approvals/feed?limit=5");
  expect(extra.status()).toBe(422);
  expect(await extra.text()).toContain("limit");
  const stranger = await playwright.request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  for (const path of ["/api/runs/feed", "/api/approvals/feed"]) {
    const response = await stranger.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(401);
  }
  await Promise.all([viewer.dispose(), stranger.dispose()]);
});
