// The MCP registry as people meet it: an admin registers a server with a
// secret that is never shown again, an off-allowlist command is refused, and
// a builder can neither register servers nor save a graph with an inline one.
// A legacy version with an inline server opens; an admin registers it from the designer.

const DEMO_ARGS = "--import tsx worker/tools/mcp-demo-server.ts";
import path from "node:path";
import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createDb } from "../lib/db/prisma";
import { storageStateFor } from "./support";

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);

/** A version saved before the registry existed, with an inline stdio server (arranged in the database: no route stores one any more). */
async function createLegacyAgent(agent: string, server: string): Promise<void> {
  const dataDir = process.env.E2E_DATA_DIR ?? path.join(import.meta.dirname, "..", ".data", "e2e");
  const db = createDb(process.env.E2E_DATABASE_URL ?? `file:${path.join(dataDir, "zap.db")}`);
  const graph = { entryAgent: "main", agents: [{ name: "main", model: "demo/assistant", mcpServers: [{ name: server, transport: { type: "stdio", command: "node", args: DEMO_ARGS.split(" ") }, allowTools: ["search_kb"] }] }] };
  try {
    await db.agent.create({ data: { name: agent, description: "legacy e2e", versions: { create: { version: 1, graph: JSON.stringify(graph), note: "legacy" } } } });
  } finally {
    await db.$disconnect();
  }
}


test.describe("as an admin", () => {
  test.use({ storageState: storageStateFor("admin") });

  test("registers a server whose secret shows as set, is refused an off-allowlist command, discovers tools and deletes it", async ({ page }) => {
    const name = `e2e_${Date.now().toString(36)}`;
    const secret = `e2e-secret-${Date.now()}`;
    await page.goto("/");
    await page.getByRole("link", { name: "MCP servers" }).click();
    await expect(page.getByTestId("mcp-server-row-kb")).toContainText("search_kb, create_ticket");

    // A command that is not on the operator's allowlist is refused, naming the field.
    await page.getByRole("button", { name: "Register a server" }).click();
    await page.getByLabel("Name", { exact: true }).fill(`${name}_bad`);
    await page.getByRole("textbox", { name: "Command" }).fill("sh");
    await page.getByRole("textbox", { name: "Arguments" }).fill("-c id");
    await page.getByRole("button", { name: "Register", exact: true }).click();
    await expect(page.getByTestId("alert-error")).toContainText("transport.command");

    // The demo command with a secret environment variable.
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByRole("textbox", { name: "Command" }).fill("node");
    await page.getByRole("textbox", { name: "Arguments" }).fill(DEMO_ARGS);
    await page.getByRole("button", { name: "Add a secret" }).click();
    await page.getByLabel("Secret 1 name").fill("KB_TOKEN");
    await page.getByLabel("Secret 1 value").fill(secret);
    await page.getByLabel("Tools offered as guardrail checks", { exact: false }).fill("screen_text");
    await page.getByRole("button", { name: "Register", exact: true }).click();
    const row = page.getByTestId(`mcp-server-row-${name}`);
    await expect(row).toContainText("KB_TOKEN: set");
    await expect(page.getByTestId(`mcp-guardrail-checks-${name}`)).toHaveText(`${name}__screen_text`);
    await expect(page.locator("body")).not.toContainText(secret);

    // Discovery is done by the worker.
    await row.getByRole("button", { name: "Discover tools" }).click();
    await expect(page.getByTestId("alert-info")).toContainText("search_kb");

    // Neither the page nor the API ever returns the value.
    const listed = await page.request.get("/api/mcp-servers");
    expect(await listed.text()).not.toContain(secret);
    const one = await page.request.get(`/api/mcp-servers/${name}`);
    expect((await one.json()).server.secretNames).toEqual(["KB_TOKEN"]);

    page.once("dialog", (dialog) => void dialog.accept());
    await row.getByRole("button", { name: "Delete" }).click();
    await expect(row).toHaveCount(0);
  });
});

test.describe("as a builder", () => {
  test.use({ storageState: storageStateFor("builder") });

  test("cannot register a server, and a graph with an inline stdio server is refused at save with its path", async ({ page, request }) => {
    const register = await request.post("/api/mcp-servers", { data: { name: "pwn", transport: { type: "stdio", command: "sh", args: ["-c", "id"] } } });
    expect(register.status()).toBe(403);
    const listed = await request.get("/api/mcp-servers");
    expect(listed.status()).toBe(200);

    const inline = { entryAgent: "main", agents: [{ name: "main", mcpServers: [{ name: "pwn", transport: { type: "stdio", command: "sh", args: ["-c", "id"] } }] }] };
    const versions = await request.get("/api/agents/support-triage/versions");
    const base = (await versions.json()).versions[0].version as number;
    const refused = await request.post("/api/agents/support-triage/versions", { data: { baseVersion: base, message: "pwn", graph: inline } });
    expect(refused.status()).toBe(422);
    expect((await refused.json()).error.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: "agents[0].mcpServers[0].transport" })]));

    await page.goto("/admin/mcp");
    await expect(page.getByText("403")).toBeVisible();
  });
});

test.describe("a legacy version with an inline server", () => {
  test("opens but does not run; a builder is told an admin must register it; the admin registers it from the designer and the graph then saves", async ({ browser }) => {
    const stamp = Date.now().toString(36);
    const agent = `e2e-legacy-${stamp}`;
    const server = `legacy_${stamp}`;
    await createLegacyAgent(agent, server);
    const viewport = { width: 1600, height: 1000 };
    const builder = await browser.newContext({ storageState: storageStateFor("builder"), viewport });
    const admin = await browser.newContext({ storageState: storageStateFor("admin"), viewport });
    try {
      const a = await builder.newPage();
      const run = await a.request.post("/api/runs", { data: { graph: agent, task: "hello" } });
      expect(run.status()).toBe(422);
      expect((await run.json()).error.issues).toEqual([expect.objectContaining({ path: "agents[0].mcpServers[0].transport" })]);
      await a.goto(`/agents/${agent}`);
      await node(a, `mcp:main:${server}`).click();
      await expect(a.getByText("An admin must register this server")).toBeVisible();
      await expect(a.getByRole("link", { name: "Register this server" })).toHaveCount(0);

      const b = await admin.newPage();
      await b.goto(`/agents/${agent}`);
      await node(b, `mcp:main:${server}`).click();
      await b.getByRole("link", { name: "Register this server" }).click();
      await expect(b.getByLabel("Name", { exact: true })).toHaveValue(server);
      await expect(b.getByRole("textbox", { name: "Arguments" })).toHaveValue(DEMO_ARGS);
      await b.getByRole("button", { name: "Register", exact: true }).click();
      await expect(b.getByTestId(`mcp-server-row-${server}`)).toContainText("search_kb");

      await b.goto(`/agents/${agent}`);
      await node(b, `mcp:main:${server}`).click();
      await b.getByRole("button", { name: `Use the registered server “${server}”` }).click();
      await b.getByLabel("Version message").fill("registered");
      await b.getByRole("button", { name: "Save" }).click();
      await expect(b.getByTestId("designer-ok")).toHaveText("Saved version 2.");
    } finally {
      await builder.close();
      await admin.close();
    }
  });
});
