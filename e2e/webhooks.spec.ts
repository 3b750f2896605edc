// Inbound webhooks as a builder meets them (issue 39 §1): an endpoint created
// on the webhooks page shows its secret once, with a copy button; a delivery
// signed with it (made here with Node's crypto, sent without any session)
// delivered three times, two of them at once, starts exactly one run, which
// the page links; an unsigned and a stale delivery are refused and listed as
// refused with their reasons. A viewer sees the endpoint without controls.
import { createHmac, randomUUID } from "node:crypto";
import { type APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

const sign = (secret: string, timestamp: number, body: string) => `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;

test.describe("webhooks", () => {
  test.use({ storageState: storageStateFor("builder") });

  test("a builder's endpoint: the secret shown once, a signed delivery sent three times starts one run, unsigned and stale ones are refused", async ({ page, context, playwright, baseURL, browser }) => {
    const api = page.request;
    const graph = `whk-${Date.now().toString(36)}`;
    expect((await api.post("/api/agents", { data: { name: graph } })).status()).toBe(201);
    const saved = await api.post(`/api/agents/${graph}/versions`, {
      data: { baseVersion: 1, message: "one agent", graph: { entryAgent: "solo", agents: [{ name: "solo", model: "demo/assistant", systemPrompt: "Answer." }], limits: { followUpWindowSeconds: 0 } } },
    });
    expect(saved.status(), await saved.text()).toBe(201);
    const name = `Issues ${graph}`;

    await page.goto("/webhooks");
    await page.getByRole("button", { name: "New webhook" }).click();
    const form = page.getByRole("form", { name: "New webhook" });
    await form.getByLabel("Webhook name").fill(name);
    await form.getByLabel("Webhook agent").selectOption(graph);
    await form.getByRole("button", { name: "Create webhook" }).click();
    const once = page.getByTestId("webhook-secret-once");
    await expect(once).toContainText(name);
    const secret = ((await once.getByTestId("webhook-secret").textContent()) ?? "").trim();
    expect(secret).toMatch(/^whsec_/);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await once.getByRole("button", { name: "Copy secret" }).click();
    await expect(once.getByRole("button", { name: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText()), "the copy button copies the secret").toBe(secret);
    await once.getByRole("button", { name: "Done" }).click();
    await expect(page.getByTestId("webhook-secret")).toHaveCount(0);

    const item = page.getByRole("listitem", { name: `Webhook ${name}` });
    const url = ((await item.getByTestId("webhook-url").textContent()) ?? "").trim();
    expect(url).toMatch(/\/api\/hooks\/whk_[A-Za-z0-9]+$/);
    const path = new URL(url).pathname;

    // The sender has no session: a request context of its own.
    const sender: APIRequestContext = await playwright.request.newContext({ baseURL });
    try {
      const body = JSON.stringify({ task: "answer: webhook delivered", context: { issue: 42 } });
      const key = `evt-${randomUUID()}`;
      const signed = () => {
        const ts = Math.floor(Date.now() / 1000);
        return { "content-type": "application/json", "x-zap-timestamp": String(ts), "x-zap-signature": sign(secret, ts, body), "idempotency-key": key };
      };
      const both = await Promise.all([sender.post(path, { headers: signed(), data: body }), sender.post(path, { headers: signed(), data: body })]);
      const third = await sender.post(path, { headers: signed(), data: body });
      const answers = await Promise.all([...both, third].map(async (r) => ({ status: r.status(), body: (await r.json()) as { outcome?: string; runId?: string } })));
      expect(answers.map((a) => a.status).sort(), JSON.stringify(answers)).toEqual([200, 200, 202]);
      const runId = answers.find((a) => a.status === 202)?.body.runId ?? "";
      expect(answers.every((a) => a.body.runId === runId), "every answer names the one run").toBe(true);
      const runs = await api.get(`/api/runs?graph=${graph}&limit=100`);
      expect(((await runs.json()) as { runs: { runId: string }[] }).runs.map((r) => r.runId), "exactly one run started").toEqual([runId]);

      const unsigned = await sender.post(path, { headers: { "content-type": "application/json", "idempotency-key": `evt-${randomUUID()}` }, data: body });
      expect(unsigned.status()).toBe(401);
      const staleAt = Math.floor(Date.now() / 1000) - 600;
      const stale = await sender.post(path, { headers: { "content-type": "application/json", "x-zap-timestamp": String(staleAt), "x-zap-signature": sign(secret, staleAt, body), "idempotency-key": `evt-${randomUUID()}` }, data: body });
      expect(stale.status()).toBe(401);
      expect(JSON.stringify(await stale.json())).not.toContain("whsec_");
    } finally {
      await sender.dispose();
    }

    await page.getByRole("button", { name: "Refresh" }).click();
    const deliveries = item.getByTestId("webhook-delivery");
    await expect(deliveries).toHaveCount(5);
    await expect(item.locator('[data-testid="webhook-delivery"][data-outcome="started"]')).toHaveCount(1);
    await expect(item.locator('[data-testid="webhook-delivery"][data-outcome="duplicate"]')).toHaveCount(2);
    const refused = item.locator('[data-testid="webhook-delivery"][data-outcome="refused"]');
    await expect(refused).toHaveCount(2);
    await expect(refused.getByTestId("webhook-delivery-reason")).toHaveText(["x-zap-timestamp is older than 300 s from the server's clock", "missing x-zap-timestamp header"]);

    const started = item.locator('[data-testid="webhook-delivery"][data-outcome="started"]');
    await started.getByRole("link").click();
    await expect(page).toHaveURL(/\/runs\/[^/]+-hook-[0-9a-f]{32}$/);
    await expect(page.getByText("answer: webhook delivered").first()).toBeVisible();

    const viewer = await browser.newContext({ storageState: storageStateFor("viewer") });
    try {
      const viewerPage = await viewer.newPage();
      await viewerPage.goto("/webhooks");
      const seen = viewerPage.getByRole("listitem", { name: `Webhook ${name}` });
      await expect(seen.getByTestId("webhook-url")).toContainText(path);
      await expect(seen.getByRole("button", { name: "Rotate secret" })).toHaveCount(0);
      await expect(viewerPage.getByRole("button", { name: "New webhook" })).toHaveCount(0);
      await viewerPage.close();
    } finally {
      await viewer.close();
    }
  });
});
