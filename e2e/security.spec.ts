// The HTTP boundary of the real server (next start behind `npm start`'s orchestrator):
// pages run under a nonce CSP with no violation, other sites cannot post to the
// API with a signed-in user's cookies, oversized bodies are cut off, and the
// audit page says its chain verifies.
import { request as httpRequest } from "node:http";
import { readFileSync } from "node:fs";
import { once } from "node:events";
import { type APIRequestContext, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";
import type { Role } from "../lib/access/roles";

const apiAs = (playwright: { request: { newContext: (o: object) => Promise<APIRequestContext> } }, baseURL: string | undefined, role: Role) =>
  playwright.request.newContext({ baseURL, storageState: storageStateFor(role) });

/** Collects CSP violations the page reports, from the DOM event and from the console. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const consoleViolations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to (execute|load|apply|evaluate)/i.test(message.text())) consoleViolations.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { __cspViolations: seen });
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return async () => [...consoleViolations, ...(await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []))];
}

test.describe("content security policy", () => {
  test("sign-in runs under a nonce CSP with no violations", async ({ page }) => {
    const violations = await watchCsp(page);
    const response = await page.goto("/sign-in");
    const csp = response?.headers()["content-security-policy"] ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(csp, "no inline script allowed").not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response?.headers()["x-content-type-options"]).toBe("nosniff");
    expect(response?.headers()["x-frame-options"]).toBe("DENY");
    expect(response?.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
    expect(await violations()).toEqual([]);
  });

  test.describe("signed in as a builder", () => {
    test.use({ storageState: storageStateFor("builder"), viewport: { width: 1600, height: 1000 } });

    test("the main pages, a run, the designer with React Flow and CodeMirror, and the inbox raise no violation", async ({ page, playwright, baseURL }) => {
      const builder = await apiAs(playwright, baseURL, "builder");
      const started = await builder.post("/api/runs", { data: { graph: "research-loop", task: `csp check ${Date.now()}` } });
      expect(started.status(), await started.text()).toBe(201);
      const { runId } = (await started.json()) as { runId: string };

      const violations = await watchCsp(page);
      await page.goto("/");
      await expect(page.getByTestId("user-role")).toHaveText("builder");
      await page.goto("/runs");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await page.goto(`/runs/${encodeURIComponent(runId)}`);
      await expect(page.getByText("research-loop").first()).toBeVisible();
      await page.goto("/agents/support-triage");
      const triage = page.locator('.react-flow__node[data-id="agent:triage"]');
      await expect(triage).toBeVisible();
      await triage.click();
      await expect(page.getByTestId("prompt-editor").first()).toBeVisible();
      await page.goto("/inbox");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await page.goto("/inbox/audit?view=events");
      await expect(page.getByRole("table", { name: "All audit events" })).toBeVisible();
      expect(await violations()).toEqual([]);
      await builder.dispose();
    });
  });
});

test.describe("the JSON API refuses what a browser on another site could send", () => {
  test("a POST with Origin https://evil.example is refused 403 and starts no run; the app's own Origin is accepted", async ({ playwright, baseURL }) => {
    const builder = await apiAs(playwright, baseURL, "builder");
    const task = `cross-origin ${Date.now()}`;
    const evil = await builder.post("/api/runs", { data: { graph: "research-loop", task }, headers: { Origin: "https://evil.example" } });
    expect(evil.status()).toBe(403);
    expect((await evil.json()).error.message).toBe("Cross-origin requests are not accepted");
    const cancel = await builder.post("/api/runs/some-run/cancel", { headers: { Origin: "https://evil.example" } });
    expect(cancel.status(), "another mutating route").toBe(403);
    const plain = await builder.post("/api/runs", { data: JSON.stringify({ graph: "research-loop", task }), headers: { "content-type": "text/plain" } });
    expect(plain.status()).toBe(415);
    const runs = (await (await builder.get("/api/runs/list?pageSize=200")).json()) as { rows: { task: string }[] };
    expect(runs.rows.filter((r) => r.task === task), "nothing was started").toEqual([]);
    await builder.dispose();
  });

  test("a body over the cap is refused 413, declared or streamed", async ({ playwright, baseURL }) => {
    const builder = await apiAs(playwright, baseURL, "builder");
    // Creating an agent takes the default cap (256 KiB); the run routes take one image as base64 (lib/attachments/schemas.ts).
    const name = `oversized-${Date.now().toString(36)}`;
    const big = await builder.post("/api/agents", { data: { name, description: "x".repeat(400 * 1024) } });
    expect(big.status(), "Content-Length over 256 KiB").toBe(413);
    expect((await builder.get(`/api/agents/${name}/versions`)).status(), "nothing was created").toBe(404);
    await builder.dispose();

    // A chunked body has no Content-Length to refuse early: the route stops at the cap while reading.
    const cookies = (JSON.parse(readFileSync(storageStateFor("builder"), "utf8")) as { cookies: { name: string; value: string }[] }).cookies;
    const url = new URL("/api/agents", baseURL);
    const req = httpRequest(url, {
      method: "POST",
      headers: { "content-type": "application/json", origin: url.origin, cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; "), "transfer-encoding": "chunked" },
    });
    const response = new Promise<number>((resolve, reject) => {
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
    });
    req.write(`{"name":"${name}","description":"`);
    const chunk = "x".repeat(64 * 1024);
    // 1 MiB in 16 chunks: four times the cap.
    for (let i = 0; i < 16; i++) if (!req.write(chunk)) await once(req, "drain");
    req.end('"}');
    const status = await response;
    expect(status).toBe(413);
  });
});

test.describe("the audit", () => {
  test.use({ storageState: storageStateFor("viewer") });

  test("the audit page says the chain verifies, and the verify API (admins only) agrees", async ({ page, playwright, baseURL }) => {
    await page.goto("/inbox/audit");
    await expect(page.getByTestId("audit-chain")).toContainText(/Audit chain verified — [\d,]+ entries/);
    const viewer = await apiAs(playwright, baseURL, "viewer");
    expect((await viewer.get("/api/audit/verify")).status(), "a viewer may not run the check").toBe(403);
    await viewer.dispose();
    const admin = await apiAs(playwright, baseURL, "admin");
    const report = (await (await admin.get("/api/audit/verify?full=1")).json()) as { verified: boolean; rows: number; hashed: number };
    expect(report.verified).toBe(true);
    expect(report.rows).toBeGreaterThan(0);
    expect(report.hashed, "a full check hashes every row").toBe(report.rows);
    await admin.dispose();
  });
});
