// Every document a spec loads is hydrated before the spec acts on it. Playwright's goto returns at the load
// event, but the App Router hydrates in a transition that yields to the browser, so on a loaded machine the
// load event comes first: probed at 8x CPU throttling (2026-12-01), /admin/users answered goto with 0 of its
// 37 controls hydrated, and a role chosen then changed the select's DOM value with no React handler to send it
// (CI's lost "cannot demote the last admin"). Waiting in each spec for the control it touches was done one spec
// at a time (support.ts `hydrated`); this closes the class: every page of every context, goto/reload/back/forward.
import { expect, test as base, type Browser, type BrowserContext, type Page } from "@playwright/test";

/**
 * The controls a user acts on. A hidden input is not one (React's form actions add some it never hydrates), nor is
 * anything inside a CodeMirror editor (it builds its own DOM inside the element React rendered for it).
 */
const CONTROLS = "a[href], button, select, textarea, input:not([type=hidden])";

/** Describes, for the error, up to five controls React has not hydrated yet (an empty list: all are). */
async function unhydratedControls(page: Page): Promise<string[]> {
  return page.evaluate((selector) => {
    const hydrated = (el: Element) => Object.keys(el).some((key) => key.startsWith("__reactProps$"));
    return [...document.querySelectorAll(selector)]
      .filter((el) => !hydrated(el) && !el.closest(".cm-editor"))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}${el.getAttribute("aria-label") ? ` "${el.getAttribute("aria-label")}"` : el.textContent ? ` "${el.textContent.trim().slice(0, 40)}"` : ""}`);
  }, CONTROLS);
}

/**
 * Waits until React has hydrated every control of the page's document (each carries React's props). A document
 * without React (a JSON answer) has nothing to wait for. A navigation while it waits (a redirect the page makes)
 * starts the wait again on the new document.
 */
export async function documentHydrated(page: Page): Promise<void> {
  await expect
    .poll(
      async () => {
        try {
          return await unhydratedControls(page);
        } catch (error) {
          // The document was replaced while it was read: read the new one.
          if (error instanceof Error && /Execution context was destroyed|navigat/i.test(error.message)) return ["(navigating)"];
          throw error;
        }
      },
      { message: "React hydrates every control of the page the spec loaded", timeout: 30_000, intervals: [50, 100, 250] },
    )
    .toEqual([]);
}

const withHydration = new WeakSet<Page>();

/** Makes the page's own navigations (goto, reload, back, forward) answer once its document is hydrated. */
export function hydrateOnNavigation(page: Page): Page {
  if (withHydration.has(page)) return page;
  withHydration.add(page);
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  const goBack = page.goBack.bind(page);
  const goForward = page.goForward.bind(page);
  page.goto = async (...args: Parameters<Page["goto"]>) => {
    const response = await goto(...args);
    await documentHydrated(page);
    return response;
  };
  page.reload = async (...args: Parameters<Page["reload"]>) => {
    const response = await reload(...args);
    await documentHydrated(page);
    return response;
  };
  page.goBack = async (...args: Parameters<Page["goBack"]>) => {
    const response = await goBack(...args);
    await documentHydrated(page);
    return response;
  };
  page.goForward = async (...args: Parameters<Page["goForward"]>) => {
    const response = await goForward(...args);
    await documentHydrated(page);
    return response;
  };
  return page;
}

function hydrateEveryPageOf(context: BrowserContext): BrowserContext {
  for (const page of context.pages()) hydrateOnNavigation(page);
  context.on("page", hydrateOnNavigation);
  return context;
}

/**
 * The base of every spec's `test` (e2e/fixtures.ts): the default page, and every page of a context a spec makes
 * itself (`browser.newContext()`: a second user in the same test), navigate with hydration.
 */
export const test = base.extend<{ page: Page }, { browser: Browser }>({
  browser: [
    async ({ browser }, provide) => {
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args: Parameters<Browser["newContext"]>) => hydrateEveryPageOf(await newContext(...args));
      await provide(browser);
    },
    { scope: "worker" },
  ],
  page: async ({ page }, provide) => {
    const failures = hydrationFailures(page);
    await provide(hydrateOnNavigation(page));
    expect(failures, "every page hydrates as the server wrote it (React rebuilt a page under the test, losing what it held)").toEqual([]);
  },
});

/**
 * Hydration failures the page reports: React then rebuilds the whole tree on the client, and what the user had
 * opened or typed (and the query cache a handler closed over) is replaced under them.
 */
export function hydrationFailures(page: Page): string[] {
  const failures: string[] = [];
  page.on("pageerror", (error) => {
    if (/Hydration|Minified React error #(418|419|423|425)\b/.test(error.message)) failures.push(`${page.url()}: ${error.message.slice(0, 300)}`);
  });
  return failures;
}
