import path from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";
import { DEMO_USERS } from "../lib/auth/demo-users";
import type { Role } from "../lib/access/roles";

/**
 * Where the signed-in browser state of each demo role is saved (once per run, by global-setup): per stack, as
 * npm test runs several Playwright processes, each against a server of its own (E2E_AUTH_DIR).
 */
export function storageStateFor(role: Role): string {
  return path.join(process.env.E2E_AUTH_DIR ?? path.join(import.meta.dirname, ".auth"), `${role}.json`);
}

export function demoUser(role: Role) {
  const user = DEMO_USERS.find((u) => u.role === role);
  if (!user) throw new Error(`no demo user for ${role}`);
  return user;
}

/** Signs in through the real form. */
export async function signInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Starts a fresh session for a demo role through the real form and waits for the shell. */
export async function signInAs(page: Page, role: Role): Promise<void> {
  await page.goto("/sign-in");
  const user = demoUser(role);
  await signInThroughForm(page, user.email, user.password);
  await expect(page.getByTestId("user-role")).toHaveText(role);
}

/**
 * Waits until React has hydrated `element` (it carries React's props, an onClick among them). A click that lands
 * while a server-rendered link is still being hydrated can be lost (seen on a loaded machine: the pointer went
 * down before hydration and up after it, and no navigation started), so a spec that clicks right after `goto`
 * waits for this first.
 */
export async function hydrated(element: Locator): Promise<void> {
  await expect
    .poll(() => element.evaluate((node) => Object.keys(node).some((key) => key.startsWith("__reactProps$"))), { message: "the element is hydrated by React" })
    .toBe(true);
}

interface ClickSeen {
  target: string;
  linkHref: string | null;
  defaultPrevented: boolean;
  atMs: number;
}

/**
 * Clicks a link and waits for the URL it opens. When the URL never comes, the error says where the click went (the
 * element the browser dispatched it to, the link around it, whether a handler took it) and which requests followed:
 * a dropped navigation in CI has nothing else to read (traces are off there).
 */
export async function clickAndExpectUrl(page: Page, link: Locator, url: RegExp): Promise<void> {
  await page.evaluate(() => {
    const seen: ClickSeen[] = [];
    (window as unknown as { __zapClicks: ClickSeen[] }).__zapClicks = seen;
    // Bubbling on window runs after React's listener on the document: defaultPrevented says whether Link took it.
    window.addEventListener("click", (event) => {
      const target = event.target instanceof Element ? event.target : null;
      const describe = (el: Element | null) => (el ? `${el.tagName.toLowerCase()}${el.getAttribute("data-testid") ? `[data-testid=${el.getAttribute("data-testid")}]` : ""}` : "none");
      seen.push({ target: describe(target), linkHref: target?.closest("a")?.getAttribute("href") ?? null, defaultPrevented: event.defaultPrevented, atMs: Math.round(performance.now()) });
    });
  });
  const requests: string[] = [];
  const onRequest = (request: { url(): string; method(): string }) => requests.push(`${request.method()} ${new URL(request.url()).pathname}${new URL(request.url()).search.slice(0, 80)}`);
  page.on("request", onRequest);
  const clickedAt = Date.now();
  await link.click();
  try {
    // Longer than an assertion's 15 s: the URL changes only once the server has rendered the next page, and in npm
    // test that render shares two cores with the other shard's stack and the first-run suite's production build.
    await expect(page).toHaveURL(url, { timeout: 30_000 });
  } catch (error) {
    const clicks = await page.evaluate(() => (window as unknown as { __zapClicks?: ClickSeen[] }).__zapClicks ?? []).catch(() => []);
    // The first line carries the evidence: a run's summary keeps only a failure's first lines.
    const summary = `the URL is ${page.url()}, not ${url}, ${((Date.now() - clickedAt) / 1000).toFixed(1)} s after the click`;
    const detail = [
      `clicks the page saw: ${clicks.length ? JSON.stringify(clicks) : "none"}`,
      `requests since the click: ${requests.length ? requests.slice(0, 20).join(", ") : "none"}`,
    ].join("\n");
    throw new Error(`${summary}\n${detail}\n${error instanceof Error ? error.message : String(error)}`);
  } finally {
    page.off("request", onRequest);
  }
}
