// Moving the inbox's keyboard focus to one call in an inbox shared with every
// other spec: whatever else waits there, the walk is as long as the rows (or
// cards) between, one key at a time, each awaited — never a fixed number of
// presses that a fuller inbox would outgrow (issue 38 §3).
import { expect, type Locator, type Page } from "@playwright/test";

/**
 * Presses j or k until the call `id` (an approval's id) is the current one. The keys walk the compact rows on a
 * wide screen (`data-row-for`; only the chosen call's card is shown beside them) and the stacked cards on a
 * narrow one (`data-approval-id`), in the order shown; none is current until the user moves.
 */
export async function moveFocusTo(page: Page, id: string): Promise<void> {
  const rows = page.getByTestId("approval-row");
  await expect(rows.or(page.getByTestId("approval-card")).first(), "the inbox lists calls").toBeVisible();
  const wide = (await rows.count()) > 0;
  const items = wide ? rows : page.getByTestId("approval-card");
  const idAttribute = wide ? "data-row-for" : "data-approval-id";
  const current = items.and(page.locator('[aria-current="true"]'));
  await expect(items.and(page.locator(`[${idAttribute}="${id}"]`)), `the call ${id} is listed`).toHaveCount(1);
  const idsOf = (list: Locator) => list.evaluateAll((elements, attribute) => elements.map((element) => element.getAttribute(attribute) ?? ""), idAttribute);
  const bound = await items.count();
  for (let moves = 0; moves <= bound; moves++) {
    // Read afresh each step: the live inbox may gain or lose other calls meanwhile.
    const ids = await idsOf(items);
    const currentId = (await idsOf(current))[0];
    const at = currentId === undefined ? -1 : ids.indexOf(currentId);
    const to = ids.indexOf(id);
    if (at === to) return;
    const key = at < to ? "j" : "k";
    await page.keyboard.press(key);
    // The call next to the one left, in the list as it is after the key: the live inbox gains and loses other
    // specs' calls meanwhile, so the list read before the key may be stale (a slow machine showed it).
    await expect
      .poll(
        async () => {
          const now = await idsOf(items);
          const moved = (await idsOf(current))[0];
          if (moved === undefined || moved === currentId) return false;
          const left = currentId === undefined ? -1 : now.indexOf(currentId);
          return left === -1 || now.indexOf(moved) === left + (key === "j" ? 1 : -1);
        },
        { message: `${key} moves to the next call` },
      )
      .toBe(true);
  }
  await expect(current, `the call ${id} is reached with j/k`).toHaveAttribute(idAttribute, id);
}
