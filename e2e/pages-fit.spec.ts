// No page of the main navigation is wider than the screen at 1280 and 1440 px
// (issue 37 §3): neither the document nor the main content box scrolls
// sideways, nor does a box inside it as the page first shows (a table that
// only fits by scrolling hides its last columns just the same). The pages are read from the shell's own navigation as an admin,
// who sees every section, so a new page is checked without a change here.
import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

test.use({ storageState: storageStateFor("admin") });

test("every page of the main navigation fits 1280 and 1440 px", async ({ page }) => {
  await page.goto("/");
  const links = page.getByRole("navigation", { name: "Main" }).getByRole("link");
  const hrefs = await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute("href") ?? ""));
  expect(hrefs.length, "the shell lists its sections").toBeGreaterThanOrEqual(8);
  // Every section is opened and measured at two widths: the test's time grows with the navigation (a fixed 45 s ran
  // out at 13 sections on a loaded machine), so it gets a budget per section.
  test.setTimeout(hrefs.length * 10_000);
  const overflowing: string[] = [];
  for (const href of hrefs) {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(href);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // Settled: the page's first reads have been drawn (live feeds stay open, so the network never idles).
    await expect(page.getByText(/^Loading/)).toHaveCount(0);
    // The narrower screen on the same page: the layout follows the window, as a user's resize would.
    for (const width of [1440, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      // Charts follow their frame through a ResizeObserver, a frame or more after the window changed: on a loaded
      // machine the overview still held its 1440-px chart when measured at 1280 (+4 px). A page fits once its layout
      // has settled, as a user resizing sees it; one that still overflows after 3 s is reported with what overflows.
      let over = await measureOverflow(page);
      for (const deadline = Date.now() + 3_000; overflows(over) && Date.now() < deadline; ) {
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
        over = await measureOverflow(page);
      }
      if (overflows(over)) overflowing.push(`${href} at ${width} px: document +${over.document} px, main +${over.main} px${over.boxes.length ? `, scrolling boxes: ${over.boxes.join(", ")}` : ""}`);
    }
  }
  expect(overflowing, "pages wider than the screen").toEqual([]);
});

interface Overflow {
  document: number;
  main: number;
  boxes: string[];
}

function overflows(over: Overflow): boolean {
  return over.document > 0 || over.main > 0 || over.boxes.length > 0;
}

/** How far the document, the main box and any sideways-scrolling box inside it are wider than their frames. */
function measureOverflow(page: Page): Promise<Overflow> {
  return page.evaluate(() => {
    const main = document.querySelector("main");
    // A box of the page that scrolls sideways as it first shows (a table wider than its frame): its content is cut off too.
    const boxes = [...(main?.querySelectorAll("*") ?? [])]
      .filter((el) => ["auto", "scroll"].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.getAttribute("data-testid") ?? el.tagName.toLowerCase()} +${el.scrollWidth - el.clientWidth} px`);
    return { document: document.documentElement.scrollWidth - document.documentElement.clientWidth, main: main ? main.scrollWidth - main.clientWidth : 0, boxes };
  });
}
