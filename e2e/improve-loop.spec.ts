// Issue 37 §2, "the improve loop does what it says", as a builder meets it:
// - the playground says what a draft would hold before saving ("Nothing to save"
//   for an edited conversation), saves a draft that is not the default — the
//   run dialog and the runs API keep taking the default — until it is promoted;
// - two runs that did the same thing compare equal although their sub-runs'
//   ids differ, each side named by its graph and version, its run id whole;
// - a fork's trace rows and conversation say in words which steps were
//   replayed and which edited (never both), and the span details show the
//   recording's figures in words, not the engine's keys;
// - "Add to dataset" preselects nothing but the user's own last dataset, and
//   the new-experiment form targets the dataset's source graph at its default
//   version, never a draft;
// - feedback buttons are icons, not emoji, and a named score is stored, shown
//   on the run and readable through the API.
// Each test makes the graph, runs and datasets it changes.
import { randomUUID } from "node:crypto";
import { type APIRequestContext, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";
import type { SpanRowPage } from "../lib/runs/span-rows";

test.use({ storageState: storageStateFor("builder") });

const BUILDER = "builder@zap.local";

async function ok(response: Awaited<ReturnType<APIRequestContext["post"]>>, what: string): Promise<Record<string, unknown>> {
  expect(response.ok(), `${what}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as Record<string, unknown>;
}

/** support-triage's prompts use these placeholders; a run without them is refused (422). */
const TRIAGE_CONTEXT = { company: "Acme", customer: { name: "Ada" } };

async function finishedRun(api: APIRequestContext, graph: string, task: string, version?: number): Promise<string> {
  const context = graph === "support-triage" ? { context: TRIAGE_CONTEXT } : {};
  const { runId } = (await ok(await api.post("/api/runs", { data: { graph, task, ...context, ...(version ? { version } : {}) } }), `start a ${graph} run`)) as { runId: string };
  await expect
    .poll(async () => ((await (await api.get(`/api/runs/${encodeURIComponent(runId)}`)).json()) as { run: { status: string } }).run.status, { timeout: 60_000, message: `${graph} run ${runId} answers` })
    .toBe("completed");
  return runId;
}

/** A graph of this test's own: a copy of treasury (v1), so promoting a draft changes nobody else's default. */
async function ownGraph(api: APIRequestContext, prefix: string): Promise<string> {
  const name = `${prefix}-${randomUUID().slice(0, 8)}`;
  await ok(await api.post("/api/agents/treasury/duplicate", { data: { newName: name } }), "copy treasury");
  return name;
}

async function spanIdOf(api: APIRequestContext, runId: string, kind: string, name?: string): Promise<string> {
  const spans = (await (await api.get(`/api/runs/${encodeURIComponent(runId)}/spans?limit=1000`)).json()) as SpanRowPage;
  const id = spans.rows.filter(([, , k, n]) => k === kind && (name === undefined || n === name)).at(-1)?.[0];
  expect(id, `a ${kind} span ${name ?? ""} in ${runId}`).toBeTruthy();
  return id ?? "";
}

/** The version the run header names ("<graph> v2"). */
async function versionRan(page: Page, runId: string): Promise<string> {
  await page.goto(`/runs/${encodeURIComponent(runId)}`);
  const version = page.getByTestId("run-version");
  await expect(version).toHaveText(/ v\d+$/);
  return (await version.textContent()) ?? "";
}

test("Save as draft says what it holds, saves a draft that is not the default, and Promote makes it the default", async ({ page }) => {
  test.setTimeout(120_000);
  const graph = await ownGraph(page.request, "improve-draft");
  const runId = await finishedRun(page.request, graph, "answer: Nothing to move today.");

  await page.goto(`/runs/${encodeURIComponent(runId)}`);
  await page.locator('[data-testid="span-row"][data-kind="inference"]').last().getByTitle(/demo\/treasurer/).click();
  await page.getByTestId("span-details").getByRole("link", { name: "Open in playground" }).click();
  await expect(page.getByRole("textbox", { name: "System prompt" })).toHaveValue(/You manage the demo ledger/);

  // Only the conversation edited: no version holds it, so there is nothing to save.
  const preview = page.getByTestId("draft-preview");
  await page.locator('[data-testid="playground-message"][data-role="user"]').last().getByRole("textbox").fill("answer: Edited in the playground.");
  await expect(preview.getByTestId("draft-nothing")).toHaveText(/^Nothing to save: treasurer's system prompt, model, temperature and output cap are those of v1\./);
  await expect(preview.getByTestId("draft-not-saved")).toContainText("1 edited message of the conversation");
  await expect(preview.getByRole("button", { name: "Save as draft" })).toBeDisabled();

  // The prompt and the temperature edited: the preview names each, before → after.
  const prompt = page.getByRole("textbox", { name: "System prompt" });
  await prompt.fill(`${await prompt.inputValue()} Be terse.`);
  await page.getByLabel("Temperature").fill("0.9");
  await expect(preview.getByTestId("draft-changes").locator("li")).toHaveText([/^system prompt: .+ → .*Be terse\.$/, "temperature: 0.2 → 0.9"]);
  await preview.getByRole("button", { name: "Save as draft" }).click();
  await expect(preview.getByTestId("alert-success")).toContainText(`Saved draft version 2 of ${graph} — not the default: v1 stays the default until the draft is promoted.`);

  const versions = async () => ((await (await page.request.get(`/api/agents/${graph}/versions`)).json()) as { versions: { version: number; draft: boolean; isDefault: boolean }[] }).versions;
  expect((await versions()).map((v) => [v.version, v.draft, v.isDefault])).toEqual([
    [2, true, false],
    [1, false, true],
  ]);

  // The run dialog's default and the runs API's default are still v1; the draft runs only when chosen.
  await page.goto(`/runs`);
  await page.getByRole("button", { name: "New run" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Agent").selectOption(graph);
  const versionSelect = dialog.getByLabel("Version");
  await expect(versionSelect.locator("option").first()).toHaveText("default (v1)");
  await expect(versionSelect.locator("option", { hasText: /^v2 \(draft\)/ })).toHaveCount(1);
  await dialog.getByRole("button", { name: "Close" }).click();
  expect(await versionRan(page, await finishedRun(page.request, graph, "answer: plain run"))).toBe(`${graph} v1`);
  expect(await versionRan(page, await finishedRun(page.request, graph, "answer: the draft, asked for", 2))).toBe(`${graph} v2`);

  // Promote (from the designer's history, as any builder would): v2 is the default from now on.
  await page.goto(`/agents/${graph}`);
  const history = page.getByTestId("history-panel");
  await expect(history.getByTestId("version-2").getByTestId("version-draft")).toHaveText("draft");
  await history.getByRole("button", { name: "Promote v2" }).click();
  await expect(history.getByTestId("version-2").getByTestId("version-default")).toHaveText("default");
  await expect(history.getByTestId("version-2").getByTestId("version-draft")).toHaveCount(0);
  expect(await versionRan(page, await finishedRun(page.request, graph, "answer: after the promotion"))).toBe(`${graph} v2`);
});

test("two runs that did the same thing compare equal although their sub-runs' ids differ; each side is named by its graph and version", async ({ page }) => {
  test.setTimeout(120_000);
  const tag = randomUUID().slice(0, 8);
  const task = `message billing: Is A-1003 refundable? (${tag})\nanswer: asked billing (${tag})`;
  const a = await finishedRun(page.request, "support-triage", task);
  const b = await finishedRun(page.request, "support-triage", task);
  // The two trees asked billing through message_agent: each result names its own child run.
  for (const runId of [a, b]) {
    const spans = (await (await page.request.get(`/api/runs/${encodeURIComponent(runId)}/spans?limit=1000`)).json()) as SpanRowPage;
    expect(spans.rows.some(([, , kind, name]) => kind === "tool" && name === "message_agent"), `${runId} asked a sub-agent`).toBe(true);
  }

  await page.goto(`/runs/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`);
  await expect(page.getByTestId("diff-no-divergence")).toHaveText("The runs took the same steps with the same contents");
  await expect(page.getByTestId("diff-count-changed")).toHaveText("0 changed");
  for (const [side, runId] of [["a", a], ["b", b]] as const) {
    const card = page.getByTestId(`compare-run-${side}`);
    await expect(card.getByTestId("compare-run-title")).toHaveText(new RegExp(`^${side.toUpperCase()} support-triage v\\d+$`));
    await expect(card.getByTestId("compare-run-id"), "the whole run id").toHaveText(runId);
    await expect(page.getByTestId(`diff-totals-${side}`)).toContainText(/support-triage v\d+/);
  }
});

test("a fork's trace rows and conversation say which steps were replayed and which edited, in words", async ({ page }) => {
  test.setTimeout(120_000);
  const tag = randomUUID().slice(0, 8);
  const origin = await finishedRun(page.request, "research-loop", `tool calculator {"expression":"6*7"}\ntool current_time {}\nanswer: done (${tag})`);
  const spanId = await spanIdOf(page.request, origin, "tool", "current_time");
  const edited = JSON.stringify({ iso: "2000-01-01T00:00:00.000Z", time_zone: "UTC", local: "01/01/2000, 00:00:00" });
  const { runId: fork } = (await ok(await page.request.post(`/api/runs/${encodeURIComponent(origin)}/fork`, { data: { spanId, editedToolResult: edited } }), "fork with an edited result")) as { runId: string };
  await expect.poll(async () => ((await (await page.request.get(`/api/runs/${encodeURIComponent(fork)}`)).json()) as { run: { status: string } }).run.status, { timeout: 60_000 }).toBe("completed");

  await page.goto(`/runs/${encodeURIComponent(fork)}`);
  const row = (kind: string, name: RegExp) => page.locator(`[data-testid="span-row"][data-kind="${kind}"]`).filter({ has: page.getByTitle(name) });
  await expect(row("tool", /calculator/).getByTestId("span-row-replayed")).toHaveText("replayed");
  const editedRow = row("tool", /current_time/);
  await expect(editedRow.getByTestId("span-row-edited")).toHaveText(`edited by ${BUILDER}`);
  await expect(editedRow.getByTestId("span-row-replayed"), "a written result never reads replayed").toHaveCount(0);
  await expect(page.locator('[data-testid="span-row"][data-kind="inference"]').getByTestId("span-row-replayed").first()).toBeVisible();

  // A replayed model call's details: what the recording cost and which model, in words.
  await page.locator('[data-testid="span-row"][data-kind="inference"]').getByTitle(/ \(replayed\)$/).first().click();
  const details = page.getByTestId("span-details");
  await expect(details.getByTestId("span-replayed")).toHaveText("replayed");
  await expect(details.getByTestId("span-attribute")).toContainText(["recorded tokens", "recorded model"]);
  await expect(details).not.toContainText("recordedInputTokens");
  await expect(details).not.toContainText("recordedModel");

  await page.getByRole("tab", { name: "Conversation" }).click();
  const call = (tool: string) => page.getByTestId("tool-call").filter({ hasText: tool });
  await expect(call("calculator").getByTestId("conversation-replayed")).toHaveText("replayed");
  await expect(call("current_time").getByTestId("conversation-edited")).toHaveText(`edited by ${BUILDER}`);
  await expect(call("current_time").getByTestId("conversation-replayed")).toHaveCount(0);
});

test("Add to dataset preselects only the user's own last dataset; a new experiment targets the dataset's source graph at its default version", async ({ page, playwright, baseURL }) => {
  test.setTimeout(120_000);
  const tag = randomUUID().slice(0, 8);
  const admin = await playwright.request.newContext({ baseURL, storageState: storageStateFor("admin"), extraHTTPHeaders: { Origin: baseURL ?? "" } });
  const graph = await ownGraph(page.request, "improve-ds");
  const [first, second] = [await finishedRun(page.request, graph, `answer: first (${tag})`), await finishedRun(page.request, graph, `answer: second (${tag})`)];
  // A draft v2 of the graph: a target must still default to v1.
  await ok(
    await page.request.post("/api/playground/draft", { data: { runId: first, spanId: await spanIdOf(page.request, first, "inference"), graphName: graph, agentName: "treasurer", baseVersion: 1, systemPrompt: "A draft prompt.", temperature: 0.5 } }),
    "save a draft",
  );
  // Someone else's dataset, the newest one: it must not be preselected.
  await ok(await admin.post("/api/datasets", { data: { name: `others-${tag}` } }), "another user's dataset");

  const addFromRunsList = async (runId: string) => {
    await page.goto(`/runs?graph=${graph}`);
    await page.getByRole("checkbox", { name: `Select run ${runId}` }).check();
    await page.getByTestId("add-to-dataset").click();
    return page.getByRole("dialog", { name: "Add to dataset" });
  };
  // What the builder changed last (other specs' datasets, in a shared database), or nothing: never the newest, the admin's.
  const { datasets, yourLast } = (await (await page.request.get("/api/datasets")).json()) as { datasets: { id: string; name: string }[]; yourLast: string | null };
  const others = datasets.find((d) => d.name === `others-${tag}`);
  expect(others, "the admin's dataset is listed").toBeTruthy();
  expect(yourLast).not.toBe(others?.id);
  let dialog = await addFromRunsList(first);
  const choice = dialog.getByLabel("Dataset", { exact: true });
  await expect(choice.locator("option", { hasText: `others-${tag}` })).toHaveCount(1);
  await expect(choice, "nothing the user did not choose, or their own last choice").toHaveValue(yourLast ?? "");
  if (!yourLast) await expect(dialog.getByTestId("add-to-dataset-submit")).toBeDisabled();
  await choice.selectOption({ label: "New dataset…" });
  await dialog.getByLabel("New dataset name").fill(`mine-${tag}`);
  await dialog.getByTestId("add-to-dataset-submit").click();
  await expect(dialog.getByTestId("add-to-dataset-result")).toContainText(`Added 1 item to mine-${tag}`);

  // The admin changes their dataset again (it is the newest now); the builder's own last choice is what comes preselected.
  await ok(await admin.post("/api/datasets", { data: { name: `others-later-${tag}` } }), "another user's newer dataset");
  dialog = await addFromRunsList(second);
  await expect(dialog.getByLabel("Dataset", { exact: true }).locator("option:checked")).toHaveText(new RegExp(`^mine-${tag} `));
  await admin.dispose();

  await page.goto("/experiments");
  await page.getByRole("button", { name: "New experiment" }).click();
  const form = page.getByRole("form", { name: "New experiment" });
  await form.getByLabel("Dataset", { exact: true }).selectOption(`mine-${tag}`);
  await expect(form.getByLabel("Target 1 graph"), "the dataset's source graph").toHaveValue(graph);
  await expect(form.getByLabel("Target 1 version"), "its default version, not the draft").toHaveValue("1");
  await expect(form.getByLabel("Target 1 version").locator("option")).toHaveText(["v2 (draft)", "v1 (default)"]);
});

test("feedback buttons are icons, not emoji; a named score is stored, shown on the run and readable through the API", async ({ page }) => {
  const runId = await finishedRun(page.request, "treasury", `answer: All balanced (${randomUUID().slice(0, 8)}).`);
  await page.goto(`/runs/${encodeURIComponent(runId)}`);
  const widget = page.getByTestId("run-feedback");
  for (const [name, icon] of [["Thumbs up on this run", "thumb-up-icon"], ["Thumbs down on this run", "thumb-down-icon"]] as const) {
    await expect(widget.getByRole("button", { name }).getByTestId(icon)).toBeVisible();
  }
  expect(await widget.textContent(), "no emoji that a browser without an emoji font shows as boxes").not.toMatch(/\p{Extended_Pictographic}/u);
  await expect(widget.getByTestId("feedback-counts")).toHaveText("0 up · 0 down");

  await widget.getByLabel("Score name on this run").fill("accuracy");
  await widget.getByLabel("Score value on this run").fill("0.8");
  await widget.getByRole("button", { name: "Save score" }).click();
  await expect(widget.locator('[data-testid="score-summary"][data-key="accuracy"]')).toHaveText("accuracy: 0.8");
  await widget.getByLabel("Score name on this run").fill("tone");
  await widget.getByLabel("Score value on this run").fill("polite");
  await widget.getByRole("button", { name: "Save score" }).click();
  await expect(widget.locator('[data-testid="score-summary"][data-key="tone"]')).toHaveText("tone: polite");

  // Stored on the server: still there after a reload, and the API reads it.
  await page.reload();
  await expect(page.getByTestId("run-feedback").locator('[data-testid="score-item"][data-key="accuracy"]')).toContainText(`accuracy 0.8 · ${BUILDER}`);
  const items = ((await (await page.request.get(`/api/runs/${encodeURIComponent(runId)}/feedback`)).json()) as { items: { key: string | null; value: number | null; category: string | null; mine: boolean }[] }).items;
  expect(items.filter((i) => i.key).map((i) => [i.key, i.value, i.category, i.mine]).sort()).toEqual([
    ["accuracy", 0.8, null, true],
    ["tone", null, "polite", true],
  ]);
});
