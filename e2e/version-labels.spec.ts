// Version labels as people meet them (issue 40 §3): a builder asks, in the
// designer's history panel, to move the protected production label to a new
// version; the change waits in the inbox, where an approver sees the version
// diff and approves it; the designer then shows production on the new version.
// A label with a 20 % split shows both versions side by side on the overview.
// Each test makes a graph of its own, so no other spec's data changes.
import { randomUUID } from "node:crypto";
import { type APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { hydrated, storageStateFor } from "./support";
import { drawKey, drawVariant } from "../lib/labels/split";

const graphOf = (prompt: string) => ({ entryAgent: "solo", agents: [{ name: "solo", model: "demo/assistant", systemPrompt: prompt }], limits: { followUpWindowSeconds: 0 } });

/** A new graph with two saved versions whose prompts differ (v2 and v3: the blank first version stays v1). */
async function graphWithVersions(api: APIRequestContext, prefix: string): Promise<string> {
  const graph = `${prefix}-${randomUUID().slice(0, 8)}`;
  expect((await api.post("/api/agents", { data: { name: graph } })).status()).toBe(201);
  for (const [base, prompt] of [
    [1, "Answer briefly."],
    [2, "Answer briefly and kindly."],
  ] as const) {
    const saved = await api.post(`/api/agents/${graph}/versions`, { data: { baseVersion: base, message: prompt, graph: graphOf(prompt) } });
    expect(saved.status(), await saved.text()).toBe(201);
  }
  return graph;
}

test.describe("version labels", () => {
  test.use({ storageState: storageStateFor("builder") });

  test("a builder asks to move production to a new version; an approver approves it in the inbox; the designer shows it on the new version", async ({ page, browser }) => {
    const graph = await graphWithVersions(page.request, "labels");
    const approverContext = await browser.newContext({ storageState: storageStateFor("approver") });
    try {
      const approver = await approverContext.newPage();
      // production names v2 to begin with (asked and approved through the API).
      const first = await page.request.post(`/api/agents/${graph}/labels/production`, { data: { version: 2 } });
      const { request } = (await first.json()) as { request: { id: string } };
      expect((await approver.request.post(`/api/label-requests/${request.id}/decision`, { data: { decision: "approve" } })).status()).toBe(200);

      await page.goto(`/agents/${graph}`);
      const history = page.getByTestId("history-panel");
      await expect(history.getByTestId("version-2").getByTestId("version-label-production")).toContainText("production");
      const form = history.getByRole("form", { name: "Set a label" });
      await hydrated(form.getByRole("button", { name: "Set label" }));
      await form.getByLabel("Label name").fill("production");
      await form.getByLabel("Label version").selectOption("3");
      await form.getByLabel("Label note").fill("kinder answers");
      await form.getByRole("button", { name: "Set label" }).click();
      await expect(history.getByTestId("label-message")).toContainText("production is protected: request lmr_");
      await expect(history.getByTestId("label-row-production")).toContainText("change waiting for approval");
      await expect(history.getByTestId("version-2").getByTestId("version-label-production"), "not moved before the approval").toHaveCount(1);

      // The builder cannot decide it; the approver sees it in the inbox with the diff and approves.
      await approver.goto("/inbox");
      const card = approver.getByTestId("label-requests").getByTestId("label-request-production").filter({ hasText: graph });
      await expect(card.getByTestId("label-request-change")).toHaveText("production: v2 → v3");
      await expect(card).toContainText("kinder answers");
      await expect(card.getByTestId("diff-fields")).toContainText("Answer briefly and kindly.");
      const approve = card.getByRole("button", { name: `Approve moving production on ${graph}` });
      await hydrated(approve);
      await approve.click();
      await expect(card).toHaveCount(0);

      await page.reload();
      await expect(history.getByTestId("version-3").getByTestId("version-label-production")).toContainText("production");
      await expect(history.getByTestId("version-2").getByTestId("version-label-production")).toHaveCount(0);
      await expect(history.getByTestId("label-row-production").getByTestId("label-version")).toHaveText("v3");
    } finally {
      await approverContext.close();
    }
  });

  test("a label with a 20 % split shows both versions side by side on the overview", async ({ page }) => {
    const graph = await graphWithVersions(page.request, "split");
    const set = await page.request.post(`/api/agents/${graph}/labels/canary`, { data: { version: 2, split: { version: 3, percent: 20, sticky: "context", contextKey: "customerId" } } });
    expect(set.status(), await set.text()).toBe(200);
    // An online evaluator on the graph scores each side's runs as they end (its workflow, off the runs' path).
    const evaluatorName = `split-hello-${randomUUID().slice(0, 8)}`;
    const created = await page.request.post("/api/evaluators", { data: { name: evaluatorName, graph, checks: [{ source: "scorer", scorer: { kind: "contains", text: "hello" } }] } });
    expect(created.status(), await created.text()).toBe(201);
    const evaluatorId = ((await created.json()) as { evaluator: { id: string } }).evaluator.id;
    // Customers picked by the split's own draw (lib/labels/split.ts): 9 on the label's version, 3 on the split's, so
    // both sides have runs; one split-side answer lacks "hello", so the two sides' scores differ (1.00 against 0.67)
    // and a mix-up between them shows.
    const customers: { id: string; variant: "base" | "split" }[] = [];
    for (let i = 0; customers.filter((c) => c.variant === "split").length < 3 || customers.filter((c) => c.variant === "base").length < 9; i++) {
      const id = `c-${i}`;
      const variant = drawVariant(graph, "canary", { percent: 20 }, drawKey({ sticky: "context", contextKey: "customerId" }, { customerId: id }, "").key);
      if (customers.filter((c) => c.variant === variant).length < (variant === "split" ? 3 : 9)) customers.push({ id, variant });
    }
    const runIds: string[] = [];
    const expectedVariant = new Map<string, string>();
    let splitMisses = 0;
    for (const customer of customers) {
      const miss = customer.variant === "split" && splitMisses++ === 0;
      const started = await page.request.post("/api/runs", { data: { graph, label: "canary", task: miss ? "answer: bye" : "answer: hello", context: { customerId: customer.id } } });
      expect(started.status(), await started.text()).toBe(201);
      const { runId } = (await started.json()) as { runId: string };
      runIds.push(runId);
      expectedVariant.set(runId, customer.variant === "split" ? "split:v3" : "base:v2");
    }
    const runs = (await (await page.request.get(`/api/runs/list?graph=${graph}&label=canary&pageSize=50`)).json()) as { rows: { runId: string; version: number | null; label?: { variant: string } | null }[] };
    expect(
      Object.fromEntries(runs.rows.map((row) => [row.runId, `${row.label?.variant}:v${row.version}`])),
      "each run on the side its customer draws, with that side's version",
    ).toEqual(Object.fromEntries(expectedVariant));

    const scored = async () => {
      let count = 0;
      for (const runId of runIds) {
        const answer = (await (await page.request.get(`/api/runs/${encodeURIComponent(runId)}/evaluations`)).json()) as { evaluations: { evaluator: string; status: string }[] };
        if (answer.evaluations.some((e) => e.evaluator === evaluatorName && e.status === "scored")) count += 1;
      }
      return count;
    };
    await expect.poll(scored, { timeout: 60_000, message: "the evaluator scored all 12 runs" }).toBe(12);

    await page.goto(`/?graph=${graph}`);
    const split = page.getByTestId(`label-split-${graph}-canary`);
    await expect(split.getByTestId("split-variant-base")).toContainText("v2 (the label's)");
    await expect(split.getByTestId("split-variant-split")).toContainText("v3 (split, 20 %)");
    await expect(split.getByTestId("split-variant-base").getByTestId("split-runs")).toHaveText("9");
    await expect(split.getByTestId("split-variant-split").getByTestId("split-runs")).toHaveText("3");
    // Each side's score is its evaluator's, counted on that side's runs.
    for (const [side, text] of [
      ["base", "1.00 (9 scored)"],
      ["split", "0.67 (3 scored)"],
    ] as const) {
      await expect(split.getByTestId(`split-variant-${side}`).getByTestId("split-score")).toHaveText(text);
      await expect(split.getByTestId(`split-variant-${side}`).getByTestId(`split-evaluator-${evaluatorName}`)).toHaveText(text);
    }
    await expect(split.getByTestId("split-significance"), "the note compares the scores it has").not.toContainText("No scores yet");
    expect((await page.request.delete(`/api/evaluators/${evaluatorId}`)).status()).toBeLessThan(300);
  });
});
