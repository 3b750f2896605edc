// The MCP registry as people meet it: an admin registers a server with a
// secret that is never shown again, an off-allowlist command is refused, and
// a builder can neither register servers nor save a graph with an inline one.
import { expect, test } from "@playwright/test";
import { storageStateFor } from "./support";

const DEMO_ARGS = "--import tsx worker/tools/mcp-demo-server.ts";

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
    await page.getByRole("button", { name: "Register", exact: true }).click();
    const row = page.getByTestId(`mcp-server-row-${name}`);
    await expect(row).toContainText("KB_TOKEN: set");
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
