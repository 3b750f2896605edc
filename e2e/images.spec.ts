// Images in tasks end to end (issue 17 §4): a builder attaches a PNG in the Run
// dialog of the image-describer agent, the offline vision model describes it
// (format, dimensions, dominant colour), the conversation shows it as a
// thumbnail served by our origin, and a follow-up with another image gets an
// answer about that one. Refusals stay in the browser: a text file named .png
// (the server sniffs the bytes) and a model without vision (named, no run).
import sharp from "sharp";
import { type Locator, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import type { RunListPage } from "../lib/runs/schemas";
import { storageStateFor } from "./support";

const AGENT = "image-describer";

/** A solid image made in the test: its format, size and colour are what the answer must name. */
async function solidImage(format: "png" | "jpeg", width: number, height: number, background: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } })[format]().toBuffer();
}

/** Chooses files through the picker's own button, the way a user does. */
async function attach(page: Page, scope: Locator, files: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
  const chooser = page.waitForEvent("filechooser");
  await scope.getByRole("button", { name: "Attach images" }).click();
  await (await chooser).setFiles(files);
}

async function openDialog(page: Page): Promise<Locator> {
  await page.goto(`/agents/${AGENT}`);
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  return dialog;
}

async function runsOfAgent(page: Page): Promise<number> {
  const response = await page.request.get(`/api/runs/list?graph=${AGENT}`);
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as RunListPage).total;
}

test.describe("images in tasks", () => {
  test.use({ storageState: storageStateFor("builder") });

  test("a PNG attached in the Run dialog is described, shown as a thumbnail, and a follow-up image is described too", async ({ page }) => {
    // Two turns through the real engine and two uploads.
    test.slow();
    const dialog = await openDialog(page);
    await dialog.getByLabel("Task").fill("What is in this image?");
    await attach(page, dialog, [{ name: "red.png", mimeType: "image/png", buffer: await solidImage("png", 64, 48, { r: 220, g: 20, b: 30 }) }]);

    const attached = dialog.getByRole("list", { name: "Attached images" }).getByTestId("attached-image");
    await expect(attached).toHaveCount(1);
    await expect(attached).toHaveAttribute("data-status", "uploaded");
    await expect(attached).toContainText("red.png");
    await expect(attached, "the server sniffed the type and measured the image").toContainText("PNG 64×48");
    await expect(attached.getByRole("img", { name: "Preview of red.png" })).toBeVisible();

    await dialog.getByRole("button", { name: "Start run" }).click();
    await expect(page).toHaveURL(/\/runs\//);
    await expect(page.getByTestId("run-status").first()).toHaveText("completed", { timeout: 20_000 });
    const output = page.getByTestId("run-output");
    await expect(output).toContainText("PNG");
    await expect(output).toContainText(/64\s*[×x]\s*48/);
    await expect(output).toContainText(/red/i);

    // The conversation shows the task's image, loaded from our origin under the CSP, linking to the original.
    await page.getByRole("tab", { name: "Conversation" }).click();
    const task = page.getByTestId("user-message").first();
    const thumbnail = task.getByRole("img", { name: "Image 1: red.png, PNG 64×48" });
    await expect(thumbnail).toBeVisible();
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { message: "the thumbnail loaded" }).toBeGreaterThan(0);
    // The link is named by the thumbnail it wraps.
    const link = task.getByRole("link", { name: "Image 1: red.png, PNG 64×48" });
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", /noopener/);
    const original = await page.request.get((await link.getAttribute("href")) ?? "");
    expect(original.status()).toBe(200);
    expect(original.headers()["content-type"]).toBe("image/png");

    // A follow-up carries its own image; the answer is about that one.
    const composer = page.getByRole("form", { name: "Follow-up" });
    await composer.getByLabel("Follow-up message").fill("And this one?");
    await attach(page, composer, [{ name: "blue.jpg", mimeType: "image/jpeg", buffer: await solidImage("jpeg", 32, 20, { r: 20, g: 40, b: 230 }) }]);
    await expect(composer.getByTestId("attached-image")).toHaveAttribute("data-status", "uploaded");
    await composer.getByRole("button", { name: "Send follow-up" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Follow-up sent." })).toBeVisible();
    await expect(composer.getByTestId("attached-image"), "the sent image left the composer").toHaveCount(0);
    const second = page.getByTestId("turn").nth(1);
    await expect(second.getByRole("img", { name: "Image 1: blue.jpg, JPEG 32×20" })).toBeVisible({ timeout: 20_000 });
    const answer = second.getByTestId("assistant-text").last();
    await expect(answer).toContainText("JPEG");
    await expect(answer).toContainText(/32\s*[×x]\s*20/);
    await expect(answer).toContainText(/blue/i);

    // The header shows the task's image, and Re-run sends it again (stored once, by id).
    await page.reload();
    await expect(page.getByTestId("run-task").getByRole("img", { name: "Image 1: red.png, PNG 64×48" })).toBeVisible();
    const firstRun = page.url();
    await page.getByRole("button", { name: "Re-run" }).click();
    const rerun = page.getByRole("dialog");
    await expect(rerun.getByLabel("Task")).toHaveValue("What is in this image?");
    const again = rerun.getByRole("list", { name: "Attached images" }).getByTestId("attached-image");
    await expect(again).toHaveCount(1);
    await expect(again).toHaveAttribute("data-status", "uploaded");
    await rerun.getByRole("button", { name: "Start run" }).click();
    await expect(page).not.toHaveURL(firstRun);
    await expect(page.getByTestId("run-status").first()).toHaveText("completed", { timeout: 20_000 });
    await expect(page.getByTestId("run-output")).toContainText(/PNG, 64\s*[×x]\s*48/);
  });

  test("images dropped onto the dialog or pasted into it are attached like chosen ones", async ({ page }) => {
    const dialog = await openDialog(page);
    const green = (await solidImage("png", 10, 10, { r: 40, g: 160, b: 60 })).toString("base64");
    // A DataTransfer holding a real PNG file, built in the page (what a drag from the desktop or a copied image carries).
    const transfer = (name: string) =>
      page.evaluateHandle(
        ({ base64, name }) => {
          const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
          const data = new DataTransfer();
          data.items.add(new File([bytes], name, { type: "image/png" }));
          return data;
        },
        { base64: green, name },
      );
    await dialog.dispatchEvent("dragover", { dataTransfer: await transfer("dropped.png") });
    await dialog.dispatchEvent("drop", { dataTransfer: await transfer("dropped.png") });
    await dialog.getByLabel("Task").evaluate((textarea, data) => textarea.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true })), await transfer("pasted.png"));
    const attached = dialog.getByRole("list", { name: "Attached images" }).getByTestId("attached-image");
    await expect(attached).toHaveCount(2);
    await expect(attached.nth(0)).toContainText("dropped.png");
    await expect(attached.nth(1)).toContainText("pasted.png");
    for (const item of await attached.all()) await expect(item).toHaveAttribute("data-status", "uploaded");
    await expect(dialog.getByLabel("Task"), "the pasted image did not become text").toHaveValue("");
  });

  test("a text file named .png is refused with the server's message, and a wrong type never uploads", async ({ page }) => {
    const dialog = await openDialog(page);
    // The browser takes the type from the name, so only the server's sniffing can tell.
    await attach(page, dialog, [{ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("just some text, not an image\n") }]);
    const item = dialog.getByTestId("attached-image").filter({ hasText: "notes.png" });
    await expect(item).toHaveAttribute("data-status", "failed");
    await expect(item.getByRole("alert")).toHaveText("Only PNG, JPEG, WebP and GIF images are accepted; this file is not one of them");
    await dialog.getByLabel("Task").fill("Describe it");
    await expect(dialog.getByRole("button", { name: "Start run" }), "a failed image blocks the start until removed").toBeDisabled();
    await item.getByRole("button", { name: "Remove notes.png" }).click();
    await expect(dialog.getByTestId("attached-image")).toHaveCount(0);
    await expect(dialog.getByRole("button", { name: "Start run" })).toBeEnabled();

    // A type the picker knows is not an image is refused before any upload.
    await attach(page, dialog, [{ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("text") }]);
    await expect(dialog.getByTestId("image-refusals")).toHaveText("notes.txt is a text/plain file: attach PNG, JPEG, WebP or GIF images");
    await expect(dialog.getByTestId("attached-image")).toHaveCount(0);
  });

  test("a model without vision is refused in the dialog by name, and no run starts", async ({ page }) => {
    const before = await runsOfAgent(page);
    const dialog = await openDialog(page);
    await dialog.getByLabel("Task").fill("What is in this image?");
    await dialog.getByLabel("Model override (optional)").fill("demo/assistant");
    await attach(page, dialog, [{ name: "red.png", mimeType: "image/png", buffer: await solidImage("png", 8, 8, { r: 255, g: 0, b: 0 }) }]);
    await expect(dialog.getByTestId("attached-image")).toHaveAttribute("data-status", "uploaded");
    await expect(dialog.getByTestId("vision-hint"), "an override is not second-guessed").toHaveCount(0);
    await dialog.getByRole("button", { name: "Start run" }).click();
    await expect(dialog.getByRole("alert")).toContainText("The model demo/assistant cannot read images");
    await expect(page).toHaveURL(new RegExp(`/agents/${AGENT}`));
    expect(await runsOfAgent(page), "no run was started").toBe(before);
  });

  test("the runs page's launcher warns before images go to a saved model without vision, and the server refuses it by name", async ({ page }) => {
    await page.goto("/runs");
    await page.getByRole("button", { name: "New run" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Agent").selectOption("treasury");
    await dialog.getByLabel("Task").fill("What does this chart say?");
    await expect(dialog.getByTestId("vision-hint"), "no hint without images").toHaveCount(0);
    await attach(page, dialog, [{ name: "chart.png", mimeType: "image/png", buffer: await solidImage("png", 8, 8, { r: 0, g: 0, b: 0 }) }]);
    await expect(dialog.getByTestId("vision-hint")).toContainText("The saved model demo/treasurer does not read images");
    await dialog.getByRole("button", { name: "Start run" }).click();
    await expect(dialog.getByRole("alert")).toContainText("The model demo/treasurer cannot read images");
    await expect(page).toHaveURL(/\/runs$/);
    // With a vision model as the override the hint goes away (the server decides either way).
    await dialog.getByLabel("Model override (optional)").fill("demo/vision");
    await expect(dialog.getByTestId("vision-hint")).toHaveCount(0);
  });
});
