// Orchestration in the designer, as a builder would do it: turn an agent into a
// router over two specialists and a fallback, draw a handoff between two
// agents, give one an output schema (field list and JSON), have the graph ask
// at its token budget with that request's reminder and escalation (checked as
// typed, read back after the save), save, run a task the router is unsure
// about, and find in the trace that the fallback took it.
import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { dragBetween } from "./canvas";
import { storageStateFor } from "./support";

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
const edge = (page: Page, id: string) => page.locator(`.react-flow__edge[data-id="${id}"]`);

/** Drags from an agent's bottom handle to another agent's top handle. */
async function link(page: Page, from: string, to: string) {
  await dragBetween(page, node(page, from).locator(".react-flow__handle-bottom"), node(page, to).locator(".react-flow__handle-top"));
}

async function select(page: Page, id: string) {
  await node(page, id).click();
  await expect(node(page, id)).toHaveClass(/selected/);
}

/** Adds an agent from the palette (it comes selected) and names and describes it. */
async function addAgent(page: Page, name: string, description: string) {
  await page.getByRole("button", { name: "+ Agent" }).click();
  await expect(node(page, "agent:agent")).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await expect(node(page, `agent:${name}`)).toBeVisible();
  await page.getByLabel("Discovery description (shown to parent agents)").fill(description);
}

test.describe("orchestration in the designer", () => {
  test.use({ storageState: storageStateFor("builder"), viewport: { width: 1600, height: 1000 } });

  test("a router with two children and a fallback, a handoff and an output schema are built, saved and run; the unsure router's task goes to the fallback", async ({ page }) => {
    test.slow();
    const name = `e2e-router-${Date.now().toString(36)}`;
    await page.goto("/agents");
    await page.getByRole("button", { name: "New agent" }).click();
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByRole("button", { name: "Create" }).click();
    await expect(node(page, "agent:main")).toBeVisible();

    await addAgent(page, "billing", "Invoices, refunds and payments");
    await addAgent(page, "tech", "Technical problems, errors and outages");
    await addAgent(page, "general", "Anything else");
    // Each "+ Agent" went to free space beside the selected agent: no two nodes overlap, before any Auto-layout.
    const boxes = await Promise.all(["main", "billing", "tech", "general"].map(async (agent) => ({ agent, box: await node(page, `agent:${agent}`).boundingBox() })));
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1)) {
        const apart = !a.box || !b.box || a.box.x + a.box.width <= b.box.x || b.box.x + b.box.width <= a.box.x || a.box.y + a.box.height <= b.box.y || b.box.y + b.box.height <= a.box.y;
        expect(apart, `${a.agent} and ${b.agent} overlap: ${JSON.stringify(a.box)} ${JSON.stringify(b.box)}`).toBe(true);
      }
    expect(boxes.every((b) => b.box !== null), "every agent is on screen").toBe(true);
    await page.getByRole("button", { name: "Auto-layout" }).click();

    // main becomes a router; its children are linked on the canvas.
    await select(page, "agent:main");
    await page.getByLabel("Kind", { exact: true }).selectOption("router");
    const settings = page.getByTestId("router-settings");
    await expect(settings).toContainText("below the threshold the task goes to the decision's fallback, else to the default agent");
    await expect(node(page, "agent:main").getByTestId("router-marker")).toHaveText("router");
    await expect(node(page, "agent:main").getByTestId("validation-badge"), "a router without children is an error").toHaveText("1 error");
    await expect(page.getByRole("region", { name: "Problems" }).getByTestId("problem").filter({ hasText: "has no children to route to" })).toHaveCount(1);
    for (const child of ["billing", "tech", "general"]) {
      await link(page, "agent:main", `agent:${child}`);
      await expect(edge(page, `sub:main>${child}`)).toBeVisible();
    }
    // The new link is selected: a router's link is a child, never a handoff.
    await expect(page.getByTestId("link-inspector")).toContainText("general is a child of the router main");
    await expect(page.getByLabel("Handoff (takes over)")).toBeDisabled();
    await expect(node(page, "agent:main")).toContainText("3 children");
    await expect(node(page, "agent:main").getByTestId("validation-badge")).toHaveText("ok");

    await select(page, "agent:main");
    await expect(page.getByLabel("Confidence threshold (0–1)")).toHaveValue("0.7");
    await page.getByLabel("Default agent (takes low-confidence tasks)").selectOption("general");
    await page.getByLabel("Max attempts").fill("2");

    // billing → tech as a handoff: drawn apart from sub-agent links, and explained.
    await link(page, "agent:billing", "agent:tech");
    const linkInspector = page.getByTestId("link-inspector");
    await expect(linkInspector.getByTestId("link-meaning")).toHaveText("A sub-agent answers back: the caller asks it, gets its answer and carries on.");
    await linkInspector.getByLabel("Handoff (takes over)").check();
    await expect(edge(page, "handoff:billing>tech")).toContainText("handoff");
    await expect(edge(page, "sub:billing>tech")).toHaveCount(0);
    await expect(linkInspector.getByTestId("link-meaning")).toContainText("transfers control for good");
    await linkInspector.getByLabel("Handoff context (what the receiver sees)").selectOption("recent");
    await linkInspector.getByLabel("Recent messages (N)").fill("4");
    await expect(node(page, "agent:billing")).toContainText("1 handoff");

    // tech answers with a typed object: a field added in the list shows in the JSON, and broken JSON is kept with an error.
    await select(page, "agent:tech");
    await page.getByRole("button", { name: "Add output schema" }).click();
    const schema = page.getByTestId("output-schema");
    await schema.getByRole("button", { name: "+ Field", exact: true }).click();
    await schema.getByLabel("Field name").last().fill("severity");
    await schema.getByLabel("Allowed values of severity").fill("low, high");
    await schema.getByLabel("Strict: refuse extra fields").check();
    await expect(schema.getByTestId("schema-size")).toContainText("of 64 KB");
    await schema.getByRole("tab", { name: "JSON" }).click();
    const json = schema.getByLabel("Output schema (JSON)");
    await expect(json).toContainText('"enum": [');
    await json.click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type("x");
    await expect(schema.getByRole("alert")).toContainText("Invalid JSON at line");
    await expect(schema.getByRole("tab", { name: "Fields" })).toBeDisabled();
    await expect(json, "the broken text is kept, not replaced by the last valid schema").toContainText("}x");
    await page.keyboard.press("Backspace");
    await expect(schema.getByRole("alert")).toHaveCount(0);
    await schema.getByRole("tab", { name: "Fields" }).click();
    await expect(schema.getByLabel("Field name")).toHaveCount(2);
    await expect(node(page, "agent:tech").getByTestId("typed-marker")).toBeVisible();

    // A schema only the server's JSON Schema compiler refuses: the refused save marks the field and the node until it is fixed.
    await schema.getByRole("tab", { name: "JSON" }).click();
    await json.click();
    await page.keyboard.press("Control+a");
    await page.keyboard.insertText('{"type": "object", "properties": {"severity": {"type": "strng"}}}');
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("designer-error")).toContainText("not a valid JSON Schema");
    await expect(schema.getByTestId("field-issues-agents[2].outputSchema")).toContainText("not a valid JSON Schema");
    await expect(node(page, "agent:tech").getByTestId("validation-badge")).toHaveText("1 error");
    await json.click();
    await page.keyboard.press("Control+a");
    await page.keyboard.insertText('{"type": "object", "properties": {"severity": {"type": "string", "enum": ["low", "high"]}}, "required": ["severity"]}');
    await expect(node(page, "agent:tech").getByTestId("validation-badge")).toHaveText("ok");
    await schema.getByRole("tab", { name: "Fields" }).click();
    await expect(schema.getByLabel("Allowed values of severity")).toHaveValue("low, high");

    // Run limits beside the others.
    await page.getByTestId("canvas").click({ position: { x: 5, y: 5 } });
    const limits = page.getByRole("group", { name: "Run limits" });
    await limits.getByLabel("Max handoffs").fill("3");
    await limits.getByLabel("At the token budget").selectOption("ask");
    // Asking at the budget brings that request's reminder and escalation, checked as they are typed.
    const budgetReminders = page.getByRole("group", { name: "Reminder and escalation of the budget request" });
    await budgetReminders.getByLabel("Remind after (min)").fill("15");
    await budgetReminders.getByLabel("Escalate to").selectOption("admin");
    await budgetReminders.getByLabel("Escalate after (min)").fill("10");
    const early = "escalate must come after the reminder: more than 15 min";
    await expect(budgetReminders.getByTestId("field-issues-limits.budgetReminders.escalateAfterMinutes")).toHaveText(early);
    await expect(page.getByRole("region", { name: "Problems" }).getByTestId("problem").filter({ hasText: early })).toHaveCount(1);
    await budgetReminders.getByLabel("Escalate after (min)").fill("45");
    await expect(budgetReminders.getByTestId("field-issues-limits.budgetReminders.escalateAfterMinutes")).toHaveCount(0);

    await page.getByLabel("Version message").fill("router with a fallback");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("designer-ok")).toHaveText("Saved version 2.");

    // After a reload the graph is as drawn: the handoff stays a handoff.
    await page.reload();
    await expect(edge(page, "handoff:billing>tech")).toContainText("handoff");
    await expect(node(page, "agent:main").getByTestId("router-marker")).toBeVisible();
    // The budget request's reminders read back, in the inspector and in the saved version's JSON.
    const savedReminders = page.getByRole("group", { name: "Reminder and escalation of the budget request" });
    await expect(savedReminders.getByLabel("Remind after (min)")).toHaveValue("15");
    await expect(savedReminders.getByLabel("Escalate after (min)")).toHaveValue("45");
    await expect(savedReminders.getByLabel("Escalate to")).toHaveValue("admin");
    const exported = await page.request.get(`/api/agents/${name}/versions/2`);
    expect(exported.status(), await exported.text()).toBe(200);
    const file = (await exported.json()) as { version: number; graph: { limits: Record<string, unknown> } };
    expect(file.version).toBe(2);
    expect(file.graph.limits).toMatchObject({ onBudget: "ask", budgetReminders: { remindAfterMinutes: 15, escalateAfterMinutes: 45, escalateTo: "admin" } });

    // A task the router routes to billing with confidence 0.3, under its threshold: the default agent takes it.
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Task").fill("route billing 0.3\n@general: answer: The general desk took this one.");
    await dialog.getByRole("button", { name: "Start run" }).click();
    await expect(page).toHaveURL(/\/runs\//);
    await expect(page.getByTestId("run-status").first()).toHaveText("completed", { timeout: 30_000 });
    await expect(page.getByTestId("run-output")).toContainText("The general desk took this one.");
    await expect(page.getByTestId("routed-to")).toHaveText("general");

    const routing = page.locator('[data-testid="span-row"][data-kind="routing"]');
    await expect(routing).toHaveCount(1);
    await expect(page.locator('[data-testid="span-row"][data-kind="sub_agent"]').filter({ hasText: "general" })).toBeVisible();
    await routing.getByRole("gridcell").first().getByRole("button").last().click();
    const decision = page.getByTestId("span-details").getByTestId("routing-decision");
    await expect(decision.locator('[data-fact="target"]')).toHaveText("billing");
    await expect(decision.locator('[data-fact="confidence"]')).toContainText("below the threshold");
    await expect(decision.locator('[data-fact="outcome"]')).toHaveText("confidence 0.3 is below the threshold 0.7 → default agent general");
    await expect(decision.locator('[data-fact="chosen"]')).toHaveText("general");
  });
});
