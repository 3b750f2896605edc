// The agent designer, driven by mouse and keyboard as a builder would: build a
// graph from blank, see and fix a cycle, save, reload, version, diff, restore,
// export and import, undo and redo; a viewer's read-only editor.
import { readFileSync } from "node:fs";
import { type Locator, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { dragBetween } from "./canvas";
import { storageStateFor } from "./support";

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);

/** Drags from an agent's bottom handle to another node's top handle. */
async function link(page: Page, from: string, to: string) {
  await dragBetween(page, node(page, from).locator(".react-flow__handle-bottom"), node(page, to).locator(".react-flow__handle-top"));
}

async function select(page: Page, id: string) {
  await node(page, id).click();
  await expect(node(page, id)).toHaveClass(/selected/);
}

const translate = async (locator: Locator) => locator.evaluate((el) => (el as HTMLElement).style.transform);

async function createAgent(page: Page, name: string) {
  await page.goto("/agents");
  await page.getByRole("button", { name: "New agent" }).click();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page).toHaveURL(new RegExp(`/agents/${name}$`));
  await expect(node(page, "agent:main")).toBeVisible();
}

async function rename(page: Page, from: string, to: string) {
  await select(page, `agent:${from}`);
  await page.getByLabel("Name", { exact: true }).fill(to);
  await expect(node(page, `agent:${to}`)).toBeVisible();
}

test.describe("as a builder", () => {
  test.use({ storageState: storageStateFor("builder"), acceptDownloads: true, viewport: { width: 1600, height: 1000 } });

  test("builds, validates, saves, versions, diffs, restores, exports, imports, undoes and redoes", async ({ page }) => {
    test.setTimeout(150_000);
    const name = `e2e-${Date.now().toString(36)}`;
    await createAgent(page, name);

    // Three agents: one dragged from the palette, one added with the keyboard.
    await page.getByRole("button", { name: "+ Agent" }).dragTo(page.getByTestId("canvas"), { targetPosition: { x: 120, y: 320 } });
    await expect(node(page, "agent:agent")).toBeVisible();
    await rename(page, "agent", "billing");
    await page.getByRole("button", { name: "+ Agent" }).focus();
    await page.keyboard.press("Enter");
    await expect(node(page, "agent:agent")).toBeVisible();
    await rename(page, "agent", "shipping");
    await page.getByRole("button", { name: "Fit view", exact: true }).click();

    // One sub-agent link, by dragging between handles.
    await link(page, "agent:main", "agent:billing");
    await expect(page.locator('.react-flow__edge[data-id="sub:main>billing"]')).toBeVisible();
    await expect(node(page, "agent:main")).toContainText("1 sub-agent");

    // The demo MCP server on main, with its tools discovered through the server side.
    await select(page, "agent:main");
    await page.getByRole("button", { name: "+ MCP server" }).click();
    await expect(node(page, "mcp:main:kb")).toBeVisible();
    await page.getByRole("button", { name: "Discover tools" }).click();
    await expect(page.getByTestId("mcp-kb-tools")).toContainText("search_kb");
    await expect(node(page, "mcp:main:kb")).toContainText("create_ticket");

    // An approval rule with its live preview of matched tools.
    await page.getByRole("button", { name: "Add approval rule" }).click();
    await page.getByLabel("Tool pattern").fill("kb__create_*");
    await page.getByLabel("Required role").selectOption("approver");
    await expect(page.getByTestId("rule-preview-0")).toContainText("Pauses for approval: kb__create_ticket");
    await expect(page.getByTestId("rule-preview-0")).toContainText("decided by approver · expires after 1 day (then rejected)");

    // A cycle: the error shows on both nodes and in the problems panel; clicking it selects a node.
    await page.getByRole("button", { name: "Fit view", exact: true }).click();
    await link(page, "agent:billing", "agent:main");
    await expect(node(page, "agent:main").getByTestId("validation-badge")).toHaveText("1 error");
    await expect(node(page, "agent:billing").getByTestId("validation-badge")).toHaveText("1 error");
    const problems = page.getByRole("region", { name: "Problems" });
    await expect(problems.getByTestId("problem").filter({ hasText: "sub-agent cycle" })).toHaveCount(1);
    await page.keyboard.press("Control+s");
    await expect(page.getByTestId("designer-error")).toContainText("fix 1 error first");
    await problems.getByTestId("problem").filter({ hasText: "sub-agent cycle" }).click();
    await expect(node(page, "agent:main")).toHaveClass(/selected/);

    // Fixed in the inspector of billing; the unreachable shipping agent stays a warning, which does not block saving.
    await select(page, "agent:billing");
    await page.getByTestId("agent-inspector").getByLabel("main").uncheck();
    await expect(node(page, "agent:main").getByTestId("validation-badge")).not.toHaveText(/error/);
    await expect(problems).toContainText("0 errors");
    await page.getByLabel("Version message").fill("three agents");
    await page.getByTestId("canvas").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("Control+s");
    await expect(page.getByTestId("designer-ok")).toHaveText("Saved version 2.");

    // Reload: the same layout.
    const before = { billing: await translate(node(page, "agent:billing")), kb: await translate(node(page, "mcp:main:kb")) };
    await page.reload();
    await expect(node(page, "agent:billing")).toBeVisible();
    expect(await translate(node(page, "agent:billing"))).toBe(before.billing);
    expect(await translate(node(page, "mcp:main:kb"))).toBe(before.kb);

    // Edit and save v3.
    await select(page, "agent:billing");
    await page.getByLabel("Temperature").fill("0.7");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("designer-ok")).toHaveText("Saved version 3.");

    // Diff v2 ↔ v3 on the canvas and as fields.
    await page.getByLabel("Compare from").selectOption("2");
    await page.getByLabel("Compare to").selectOption("3");
    await page.getByRole("button", { name: "Show diff" }).click();
    await expect(node(page, "agent:billing").locator("[data-diff]")).toHaveAttribute("data-diff", "changed");
    await expect(node(page, "agent:main").locator("[data-diff]")).toHaveCount(0);
    await expect(page.getByTestId("diff-fields")).toContainText('agents["billing"].temperature: 0.2 → 0.7');
    await page.getByRole("button", { name: "Close diff" }).click();

    // Restore v2 as v4.
    await page.getByRole("button", { name: "Restore v2" }).click();
    await expect(page.getByTestId("designer-ok")).toHaveText("Restored v2 as version 4.");
    await select(page, "agent:billing");
    await expect(page.getByLabel("Temperature")).toHaveValue("0.2");
    await expect(page.getByTestId("version-4")).toContainText("Restored v2");

    // Export v4 and import it back; a broken file is refused with paths.
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export v4" }).click();
    const file = await (await download).path();
    const exported = JSON.parse(readFileSync(file, "utf8")) as { version: number; graph: { agents: { name: string }[] } };
    expect(exported.version).toBe(4);
    expect(exported.graph.agents.map((a) => a.name)).toEqual(["main", "billing", "shipping"]);
    await page.getByLabel("JSON to import").fill('{"entryAgent":"main","agents":[{"name":"main","temperature":9}, {"name":"bad name"}]}');
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await expect(page.getByTestId("import-errors")).toContainText("agents[0].temperature");
    await expect(page.getByTestId("import-errors")).toContainText("agents[1].name");
    await page.getByLabel("Import file").setInputFiles(file);
    await expect(page.getByTestId("designer-info")).toHaveText("Imported into the draft. Save to make it a version.");

    // Undo and redo an inspector edit.
    await select(page, "agent:shipping");
    await page.getByLabel("Discovery description (shown to parent agents)").fill("Delivery questions");
    await page.getByTestId("canvas").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("Control+z");
    await select(page, "agent:shipping");
    await expect(page.getByLabel("Discovery description (shown to parent agents)")).toHaveValue("");
    await page.getByTestId("canvas").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("Shift+Control+z");
    await select(page, "agent:shipping");
    await expect(page.getByLabel("Discovery description (shown to parent agents)")).toHaveValue("Delivery questions");
  });
});

test.describe("agents page", () => {
  test.use({ storageState: storageStateFor("builder") });

  test("lists, searches, creates from a template, refuses a broken import with paths, duplicates and archives", async ({ page }) => {
    const name = `e2e-list-${Date.now().toString(36)}`;
    await page.goto("/agents");
    await expect(page.getByTestId("agent-row-support-triage")).toContainText("triage");
    await page.getByLabel("Search agents").fill("treasury");
    await expect(page.getByTestId("agent-row-treasury")).toBeVisible();
    await expect(page.getByTestId("agent-row-support-triage")).toHaveCount(0);
    await page.getByLabel("Search agents").fill("");

    await page.getByRole("button", { name: "New agent" }).click();
    await page.getByLabel("Name", { exact: true }).fill(`${name}-bad`);
    await page.getByLabel("Start from").selectOption("import");
    await page.getByLabel("Graph JSON").fill('{"entryAgent":"main","agents":[{"name":"main","subAgents":["ghost"]}]}');
    await page.getByRole("button", { name: "Import" }).click();
    await expect(page.getByTestId("error-issues")).toContainText('agents[0].subAgents[0]: unknown sub-agent "ghost"');

    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Start from").selectOption("support-triage");
    await page.getByRole("button", { name: "Create" }).click();
    await expect(node(page, "agent:triage")).toBeVisible();
    await expect(node(page, "mcp:triage:kb")).toBeVisible();

    await page.goto("/agents");
    page.once("dialog", (d) => void d.accept(`${name}-copy`));
    await page.getByRole("button", { name: `Duplicate ${name}` }).click();
    await expect(page.getByTestId(`agent-row-${name}-copy`)).toContainText("v1");
    await page.getByRole("button", { name: `Archive ${name}-copy` }).click();
    await expect(page.getByTestId(`agent-row-${name}-copy`)).toHaveCount(0);
    await page.getByLabel("Show archived").check();
    await expect(page.getByTestId(`agent-row-${name}-copy`)).toContainText("archived");
  });
});

test.describe("a draft in this browser", () => {
  test.use({ storageState: storageStateFor("builder"), viewport: { width: 1600, height: 1000 } });

  test("an edit made the moment before a reload is kept and restored", async ({ page }) => {
    const name = `e2e-draft-${Date.now().toString(36)}`;
    await createAgent(page, name);
    await select(page, "agent:main");
    // No pause: the draft's debounced copy has not been written yet when the page goes away.
    await page.getByLabel("Temperature").fill("0.7");
    page.once("dialog", (dialog) => void dialog.accept());
    await page.reload();
    await expect(page.getByTestId("designer-info")).toContainText("Restored your unsaved draft");
    await select(page, "agent:main");
    await expect(page.getByLabel("Temperature")).toHaveValue("0.7");
  });
});

test.describe("two editors", () => {
  test("the second save on the same base is refused naming the first author; the draft survives and can be saved on top", async ({ browser }) => {
    const name = `e2e-conflict-${Date.now().toString(36)}`;
    const viewport = { width: 1600, height: 1000 };
    const builder = await browser.newContext({ storageState: storageStateFor("builder"), viewport });
    const admin = await browser.newContext({ storageState: storageStateFor("admin"), viewport });
    try {
      const a = await builder.newPage();
      await createAgent(a, name);
      const b = await admin.newPage();
      await b.goto(`/agents/${name}`);
      await expect(node(b, "agent:main")).toBeVisible();

      await select(a, "agent:main");
      await a.getByLabel("Temperature").fill("0.5");
      await a.getByRole("button", { name: "Save" }).click();
      await expect(a.getByTestId("designer-ok")).toHaveText("Saved version 2.");

      await select(b, "agent:main");
      await b.getByLabel("Discovery description (shown to parent agents)").fill("edited by the admin");
      await b.getByRole("button", { name: "Save" }).click();
      const conflict = b.getByTestId("designer-conflict");
      await expect(conflict).toContainText("Bo Builder saved version 2");
      await expect(conflict).toContainText("your draft is kept");
      await expect(b.getByTestId("version-2")).toContainText("Bo Builder");

      // The draft survives a reload (after the unsaved-changes warning).
      const warned = new Promise<string>((resolve) => b.once("dialog", (d) => { resolve(d.type()); void d.accept(); }));
      await b.reload();
      expect(await warned).toBe("beforeunload");
      await expect(b.getByTestId("designer-info")).toContainText("Restored your unsaved draft");
      await select(b, "agent:main");
      await expect(b.getByLabel("Discovery description (shown to parent agents)")).toHaveValue("edited by the admin");

      // Saving again still refuses; the diff shows what the builder changed; then the admin builds on v2 knowingly.
      await b.getByRole("button", { name: "Save" }).click();
      await b.getByRole("button", { name: "Compare v2 with your draft" }).click();
      await expect(b.getByTestId("diff-fields")).toContainText('agents["main"].temperature: 0.5 → 0.2');
      await expect(b.getByTestId("diff-fields")).toContainText('agents["main"].description');
      await b.getByRole("button", { name: "Close diff" }).click();
      await b.getByRole("button", { name: "Continue on top of v2" }).click();
      await b.getByRole("button", { name: "Save" }).click();
      await expect(b.getByTestId("designer-ok")).toHaveText("Saved version 3.");

      const versions = await a.request.get(`/api/agents/${name}/versions`);
      const listed = ((await versions.json()) as { versions: { version: number; author: string }[] }).versions;
      expect(listed.map((v) => `${v.version} ${v.author}`)).toEqual(["3 Alex Admin", "2 Bo Builder", "1 Bo Builder"]);
    } finally {
      await builder.close();
      await admin.close();
    }
  });
});

test.describe("as a viewer", () => {
  test.use({ storageState: storageStateFor("viewer"), viewport: { width: 1600, height: 1000 } });

  test("sees the editor read-only, and the server refuses a save", async ({ page, request }) => {
    await page.goto("/agents/support-triage");
    await expect(page.getByTestId("read-only-banner")).toBeVisible();
    await expect(node(page, "agent:triage")).toBeVisible();
    await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
    await select(page, "agent:billing");
    await expect(page.getByLabel("Name", { exact: true })).toBeDisabled();
    await expect(page.getByRole("button", { name: "+ Agent" })).toBeDisabled();

    const refused = await request.post("/api/agents/support-triage/versions", { data: { baseVersion: 1, graph: { entryAgent: "x", agents: [{ name: "x" }] } } });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error.code).toBe("forbidden");
  });
});
