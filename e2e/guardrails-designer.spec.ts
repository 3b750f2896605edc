// Guardrails in the designer, as a builder would add them: an input guardrail
// that blocks card numbers and an output guardrail judged against a rubric, the
// validator's message under a field while it is wrong, the "try it" box
// tripping on a Luhn-valid card number (and passing a number that fails Luhn),
// then a save and a reload that read both guardrails back; and a check an admin
// offers on the demo MCP server (kb__screen_text), picked from the list, saved
// and run from the designer: the confidential task is blocked, naming it.
import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);

async function select(page: Page, id: string) {
  await node(page, id).click();
  await expect(node(page, id)).toHaveClass(/selected/);
}

test.describe("guardrails in the designer", () => {
  test.use({ storageState: storageStateFor("builder"), viewport: { width: 1600, height: 1000 } });

  test("a builder adds a card-number input guardrail and a judge output guardrail, tries a text, saves and reads both back", async ({ page }) => {
    const name = `e2e-guardrails-${Date.now().toString(36)}`;
    await page.goto("/agents");
    await page.getByRole("button", { name: "New agent" }).click();
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByRole("button", { name: "Create" }).click();
    await expect(node(page, "agent:main")).toBeVisible();
    await select(page, "agent:main");

    const section = page.getByTestId("guardrails");
    await section.getByRole("button", { name: "Add guardrail" }).click();
    const cards = section.getByRole("group", { name: "Guardrail 1" });
    await cards.getByLabel("Guardrail name").fill("no-cards");
    await expect(cards.getByLabel("Checks", { exact: true })).toHaveValue("input");
    await cards.getByLabel("Check", { exact: true }).selectOption("pii");
    for (const other of ["Email addresses", "Phone numbers", "IBANs (mod-97-checked)", "API keys and credentials"]) await cards.getByLabel(other).uncheck();
    await expect(cards.getByLabel("Card numbers (Luhn-checked)")).toBeChecked();
    await cards.getByLabel("When it trips", { exact: true }).selectOption("block");

    // A rewrite is only for output guardrails: the message shows under the field while it is wrong.
    await cards.getByLabel("When it trips", { exact: true }).selectOption("rewrite");
    await expect(cards.getByTestId("field-issues-agents[0].guardrails[0].action")).toContainText("only output guardrails may rewrite");
    await expect(node(page, "agent:main").getByTestId("validation-badge")).toHaveText("1 error");
    await cards.getByLabel("When it trips", { exact: true }).selectOption("block");
    await expect(cards.getByTestId("field-issues-agents[0].guardrails[0].action")).toHaveCount(0);

    await section.getByRole("button", { name: "Add guardrail" }).click();
    const polite = section.getByRole("group", { name: "Guardrail 2" });
    await polite.getByLabel("Guardrail name").fill("polite-answer");
    await polite.getByLabel("Checks", { exact: true }).selectOption("output");
    await polite.getByLabel("Check", { exact: true }).selectOption("judge");
    await polite.getByLabel("Rubric (what a passing text does)").fill("The answer is polite and never repeats a card number.");
    await polite.getByLabel("When it trips", { exact: true }).selectOption("block");
    await expect(node(page, "agent:main").getByTestId("validation-badge")).toHaveText("ok");

    // Try it: a Luhn-valid card number trips the input guardrail in the browser; the judge runs on the server.
    const tryIt = section.getByRole("region", { name: "Try the guardrails" });
    await tryIt.getByLabel("Try it: a text to check").fill("Please charge my card 4242 4242 4242 4242 today.");
    await tryIt.getByRole("button", { name: "Try" }).click();
    const cardResult = tryIt.locator('[data-testid="guardrail-try-result"][data-guardrail="no-cards"]');
    await expect(cardResult.getByTestId("guardrail-try-verdict")).toHaveText("tripped");
    await expect(cardResult.getByTestId("guardrail-try-reason")).toHaveText("The text contains a card number.");
    await expect(cardResult).toContainText("the run would be blocked");
    await expect(tryIt.locator('[data-testid="guardrail-try-result"][data-guardrail="polite-answer"]').getByTestId("guardrail-try-verdict")).toHaveText("runs on the server when the agent runs");
    // The same digits with a wrong check digit are not a card.
    await tryIt.getByLabel("Try it: a text to check").fill("Order 4242 4242 4242 4241 shipped.");
    await tryIt.getByRole("button", { name: "Try" }).click();
    await expect(cardResult.getByTestId("guardrail-try-verdict")).toHaveText("passed");

    await page.getByLabel("Version message").fill("guardrails: no cards in, polite out");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("designer-ok")).toHaveText("Saved version 2.");

    await page.reload();
    await select(page, "agent:main");
    const saved = page.getByTestId("guardrails");
    await expect(saved.getByRole("group", { name: "Guardrail 1" }).getByLabel("Guardrail name")).toHaveValue("no-cards");
    await expect(saved.getByRole("group", { name: "Guardrail 1" }).getByLabel("Card numbers (Luhn-checked)")).toBeChecked();
    await expect(saved.getByRole("group", { name: "Guardrail 1" }).getByLabel("Email addresses")).not.toBeChecked();
    await expect(saved.getByRole("group", { name: "Guardrail 2" }).getByLabel("Guardrail name")).toHaveValue("polite-answer");
    await expect(saved.getByRole("group", { name: "Guardrail 2" }).getByLabel("Check", { exact: true })).toHaveValue("judge");
    await expect(saved.getByRole("group", { name: "Guardrail 2" }).getByLabel("Rubric (what a passing text does)")).toHaveValue("The answer is polite and never repeats a card number.");

    const exported = await page.request.get(`/api/agents/${name}/versions/2`);
    expect(exported.status(), await exported.text()).toBe(200);
    const file = (await exported.json()) as { graph: { agents: { name: string; guardrails: unknown[] }[] } };
    expect(file.graph.agents.find((agent) => agent.name === "main")?.guardrails).toEqual([
      { name: "no-cards", kind: "input", check: { type: "pii", detectors: ["card"] }, action: "block", maxRewrites: 1, parallel: false },
      { name: "polite-answer", kind: "output", check: { type: "judge", rubric: "The answer is polite and never repeats a card number.", passAt: 0.5 }, action: "block", maxRewrites: 1, parallel: false },
    ]);
  });

  test("a builder picks a check an admin offers on an MCP server, saves, and a run of a confidential task is blocked by it", async ({ page, playwright, baseURL }) => {
    // The seed offers kb's screen_text as a check; an admin offers it again here, so the test holds on any database.
    const admin = await playwright.request.newContext({ baseURL, storageState: storageStateFor("admin"), extraHTTPHeaders: { Origin: baseURL ?? "" } });
    const offered = await admin.patch("/api/mcp-servers/kb", { data: { guardrailTools: ["screen_text"] } });
    expect(offered.status(), await offered.text()).toBe(200);
    await admin.dispose();
    const name = `e2e-mcp-check-${Date.now().toString(36)}`;
    await page.goto("/agents");
    await page.getByRole("button", { name: "New agent" }).click();
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByRole("button", { name: "Create" }).click();
    await expect(node(page, "agent:main")).toBeVisible();
    await select(page, "agent:main");

    const section = page.getByTestId("guardrails");
    await section.getByRole("button", { name: "Add guardrail" }).click();
    const card = section.getByRole("group", { name: "Guardrail 1" });
    await card.getByLabel("Guardrail name").fill("screen");
    await card.getByLabel("Check", { exact: true }).selectOption("custom");
    // The registry's offer is listed beside the built-in checks, with what it is.
    await card.getByLabel("Custom check").selectOption("kb__screen_text");
    await expect(card).toContainText("The tool screen_text of the MCP server kb, offered as a check by an admin");
    await card.getByLabel("When it trips", { exact: true }).selectOption("block");
    await expect(node(page, "agent:main").getByTestId("validation-badge")).toHaveText("ok");
    await page.getByLabel("Version message").fill("screen confidential tasks");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("designer-ok")).toHaveText("Saved version 2.");

    await page.getByRole("button", { name: "Run", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: `Run ${name}` });
    await dialog.getByLabel("Task").fill("Summarise this confidential memo for the board.");
    await dialog.getByRole("button", { name: "Start run" }).click();
    await expect(page).toHaveURL(/\/runs\//);
    await expect(page.getByRole("alert").filter({ hasText: "guardrail_tripped" })).toHaveText('guardrail_tripped: guardrail "screen" (input, custom) tripped: the text is marked "confidential"');
  });
});
