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
