// Words and numbers that agree (issue 25 §4), read as a viewer would: a task
// the router was unsure of, taken by its default agent, says so in one
// sentence; the run's duration is one number in the header and on the trace's
// root bar, and the follow-up window after the answer is said as a window; the
// run is titled by its graph; the favicon loads; an image given the wrong
// shape through the HTTP API is refused with what the API takes instead.
import { type APIRequestContext, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import type { RunEvent } from "../lib/contract/types";
import { storageStateFor } from "./support";

test.use({ storageState: storageStateFor("viewer") });

let builder: APIRequestContext;
/** One help-desk run, routed by the demo model at confidence 0.4 with no fallback named: the router's default agent (general) takes it. */
let runId = "";
const tag = `words-${Date.now()}`;

test.beforeAll(async ({ playwright, baseURL }) => {
  builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder"), extraHTTPHeaders: { Origin: baseURL ?? "" } });
});

test.afterAll(async () => {
  await builder.dispose();
});

/** Starts the routed run once (the first test that needs it) and waits until it answered. */
async function routedRun(page: Page): Promise<string> {
  if (runId) return runId;
  const started = await builder.post("/api/runs", { data: { graph: "help-desk", task: `route billing 0.4\n@general: answer: The general desk answers (${tag}).` } });
  expect(started.status(), await started.text()).toBe(201);
  ({ runId } = (await started.json()) as { runId: string });
  await expect
    .poll(async () => ((await (await page.request.get(`/api/runs/${encodeURIComponent(runId)}`)).json()) as { run: { status: string } }).run.status, { timeout: 30_000, message: `help-desk run ${runId} answers` })
    .toBe("completed");
  return runId;
}

test("a task below the threshold taken by the default agent says so, in one sentence", async ({ page }) => {
  const id = await routedRun(page);
  await page.goto(`/runs/${encodeURIComponent(id)}`);
  await expect(page.getByTestId("routed-to")).toHaveText("general");

  const row = page.locator('[data-testid="span-row"][data-kind="routing"]').first();
  await row.getByTitle(/^routing decision /).click();
  const decision = page.getByTestId("span-details").getByTestId("routing-decision");
  await expect(decision.locator('[data-fact="outcome"]')).toHaveText("confidence 0.4 is below the threshold 0.7 → default agent general");
  await expect(decision.locator('[data-fact="fallback named"]')).toHaveText("none");
  await expect(decision.locator('[data-fact="chosen"]')).toHaveText("general");
  // The old pair contradicted itself: "fallback: none named" beside "fallback taken: yes".
  await expect(decision.locator('[data-fact="fallback taken"]')).toHaveCount(0);
  await expect(page.getByTestId("marker-routing_decided")).toHaveAttribute("title", "routed to general (attempt 1): confidence 0.4 is below the threshold 0.7 → default agent general");

  // The API carries the facts the sentence is made of.
  const events = (await (await page.request.get(`/api/runs/${encodeURIComponent(id)}/events?since=0`)).json()) as { events: RunEvent[] };
  const decided = events.events.find((e) => e.type === "routing_decided");
  expect(decided?.type === "routing_decided" && decided.decision).toMatchObject({ target: "billing", fallback: null, chosen: "general", fallbackTaken: true, threshold: 0.7 });
});

test("a run's duration is one number in the header and on the trace's root bar; the follow-up window is said as a window", async ({ page }) => {
  const id = await routedRun(page);
  await page.goto(`/runs/${encodeURIComponent(id)}`);
  // The run is its graph's; the entry agent stands beside the name.
  await expect(page.getByRole("heading", { level: 1 })).toContainText("help-desk");
  await expect(page.getByTestId("run-title")).toHaveText("help-desk");
  await expect(page.getByTestId("run-agent")).toHaveText("entry agent help-desk");

  // The run answered and waits for a follow-up: the header says until when (the window's span is written just after the answer).
  const window = page.getByTestId("follow-up-window");
  await expect(async () => {
    if (!(await window.isVisible())) await page.reload();
    await expect(window).toHaveText(/^open for follow-ups until .+, \d{2}:\d{2}:\d{2}$/, { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  const until = (await window.textContent()) ?? "";

  // The header's duration and the root bar's are the same number, and stay so: the window is not run time.
  const duration = (await page.getByTestId("run-duration").textContent()) ?? "";
  expect(duration).toMatch(/^\d+ ms$|^\d+\.\d s$/);
  const rootBar = page.locator('[data-testid="span-row"][data-kind="run"]').first().getByRole("button", { name: /^run help-desk, / });
  await expect(rootBar).toHaveAttribute("aria-label", `run help-desk, ${duration}`);
  await expect(page.getByTestId("run-output")).toContainText(tag);
  await page.reload();
  await expect(page.getByTestId("run-duration"), "later, the same number").toHaveText(duration);
  await expect(rootBar, "the root bar does not grow while the run waits for follow-ups").toHaveAttribute("aria-label", `run help-desk, ${duration}`);

  // On the trace the window is a deadline, not a growing time, and the same one the header gives.
  const timer = page.locator('[data-testid="span-row"][data-kind="timer"]').filter({ hasText: "follow-up window" });
  await expect(timer.getByTestId("span-follow-up-window")).toHaveText(until);
});

test("the favicon loads on a first visit", async ({ page }) => {
  const icons: { url: string; status: number }[] = [];
  page.on("response", (response) => {
    if (/\/(favicon\.ico|icon\.svg)/.test(response.url())) icons.push({ url: response.url(), status: response.status() });
  });
  await page.goto("/runs");
  const href = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(href, "every page links an icon").toMatch(/icon/);
  const linked = await page.request.get(href ?? "");
  expect(linked.status()).toBe(200);
  expect(linked.headers()["content-type"]).toMatch(/^image\//);
  // Clients that ask for /favicon.ico without reading the page get one too.
  const ico = await page.request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  expect(icons.filter((i) => i.status >= 400), "no icon request failed").toEqual([]);
});

test("an image of the wrong shape through the HTTP API is refused with the shapes the API takes", async () => {
  const refused = await builder.post("/api/runs", { data: { graph: "help-desk", task: "What is on this picture?", images: [{ id: "img_0123456789abcdef0123456789abcdef" }] } });
  expect(refused.status(), "a client error, not a 500").toBe(422);
  const { error } = (await refused.json()) as { error: { code: string; issues: { path: string; message: string }[] } };
  expect(error.code).toBe("validation_failed");
  expect(error.issues).toEqual([{ path: "images[0]", message: "use { attachmentId }, { data } or { url } (got { id })" }]);

  // A strict object's unknown key stays precise, and a meant shape gets its own words.
  const extra = await builder.post("/api/runs", { data: { graph: "help-desk", task: "hi", images: [{ url: "https://example.com/cat.png", alt: "a cat" }] } });
  expect(extra.status()).toBe(422);
  expect(((await extra.json()) as { error: { issues: { path: string; message: string }[] } }).error.issues).toEqual([{ path: "images[0]", message: 'Unrecognized key: "alt"' }]);
  const ftp = await builder.post("/api/runs", { data: { graph: "help-desk", task: "hi", images: [{ url: "ftp://example.com/cat.png" }] } });
  expect(ftp.status()).toBe(422);
  expect(((await ftp.json()) as { error: { issues: { path: string; message: string }[] } }).error.issues).toEqual([{ path: "images[0].url", message: "use an http or https URL" }]);
});

/** "839 ms" or "1.4 s" in ms. */
function durationMs(text: string): number {
  const match = /(\d+(?:\.\d+)?) (ms|s)$/.exec(text);
  if (!match) throw new Error(`not a duration: ${text}`);
  return Number(match[1]) * (match[2] === "s" ? 1000 : 1);
}

test("a sub-agent that answered and waits for its parent is not drawn as growing past the run", async ({ page }) => {
  const task = `tool lookup_order {"order_id":"A-1003"} && message billing: Is A-1003 refundable?\nanswer: A-1003 can be refunded (${tag}).`;
  const started = await builder.post("/api/runs", { data: { graph: "support-triage", task, context: { company: "Acme", customer: { name: "Ada" } } } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId: id } = (await started.json()) as { runId: string };
  await expect
    .poll(async () => ((await (await page.request.get(`/api/runs/${encodeURIComponent(id)}`)).json()) as { run: { status: string } }).run.status, { timeout: 30_000 })
    .toBe("completed");
  const completedAt = Date.now();
  // A bar drawn to the browser's clock would by now be longer than the whole run: let the clock pass the run's own length.
  await expect.poll(() => Date.now() - completedAt, { timeout: 10_000 }).toBeGreaterThan(2_500);
  await page.goto(`/runs/${encodeURIComponent(id)}`);
  await page.getByRole("button", { name: "Show sub-run billing" }).click();
  const rootBar = page.locator('[data-testid="span-row"][data-kind="run"]').first().getByRole("button", { name: /^run triage, / });
  const childBar = page.locator('[data-testid="span-row"][data-kind="run"][data-run*=".billing-"]').first().getByRole("button", { name: /^run billing, / });
  await expect(childBar).toBeVisible();
  const root = durationMs((await rootBar.getAttribute("aria-label")) ?? "");
  const child = durationMs((await childBar.getAttribute("aria-label")) ?? "");
  expect(child, `the billing sub-run (${child} ms) worked within the run (${root} ms)`).toBeLessThanOrEqual(root);
  // Nor does the open wait keep the time axis growing with the clock: it ends with the run.
  const ticks = await page.getByTestId("time-axis").locator("span").allTextContents();
  const axisEnd = durationMs(ticks.filter((t) => t.startsWith("+")).at(-1) ?? "");
  expect(axisEnd, `the axis (to +${axisEnd} ms) ends with the run (${root} ms)`).toBeLessThanOrEqual(root + 100);
  // Its wait is said as a deadline, in the same clock as the follow-up window.
  await expect(page.getByTestId("span-row").filter({ hasText: "idle wait for the parent" }).first()).toContainText(/until .+, \d{2}:\d{2}:\d{2}/);
});
