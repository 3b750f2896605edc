// Dragging on a React Flow canvas the way a person does: only once what they
// are about to grab has stopped moving. A fit (the "Fit view" button, a new
// node's reveal) is applied by React Flow at its next node update, a frame or
// more after the click; a drag measured before it lands on where the handle
// was, and draws nothing (npm test, 2026-12-01: designer, "sub:main>billing"
// never drawn, on a loaded machine).
import { expect, type Locator, type Page } from "@playwright/test";

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A locator's bounding box once it has stopped moving: the same over three readings a poll apart (100 ms and
 * more) and a frame apart within each. Two readings a frame apart were not enough on a loaded machine: the canvas
 * was still settling its viewport, and the drag that followed ended beside the handle (npm test, 2026-11-29).
 */
export async function settledBox(locator: Locator): Promise<Box> {
  const readings: string[] = [];
  let box: Box | null = null;
  await expect
    .poll(async () => {
      box = await locator.boundingBox();
      await locator.page().evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
      const again = await locator.boundingBox();
      readings.push(box !== null && JSON.stringify(box) === JSON.stringify(again) ? JSON.stringify(again) : "moving");
      const lastThree = readings.slice(-3);
      return lastThree.length === 3 && lastThree[0] !== "moving" && lastThree.every((r) => r === lastThree[0]);
    }, { message: "the handle stops moving", intervals: [100, 100, 250] })
    .toBe(true);
  if (!box) throw new Error("the handle is not visible");
  return box;
}

/** Presses on `source`, drags in steps to `target` and releases, both measured once settled; `offset` moves off the centres (source +, target −). */
export async function dragBetween(page: Page, source: Locator, target: Locator, offset = { x: 0, y: 0 }): Promise<{ source: Box; target: Box }> {
  const a = await settledBox(source);
  const b = await settledBox(target);
  await page.mouse.move(a.x + a.width / 2 + offset.x, a.y + a.height / 2 + offset.y);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2 - offset.x, b.y + b.height / 2 - offset.y, { steps: 8 });
  await page.mouse.up();
  return { source: a, target: b };
}
