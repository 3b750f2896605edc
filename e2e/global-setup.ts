// Signs each demo role in once through the real sign-in form and saves the
// browser state, so specs start signed in without repeating the login.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type FullConfig } from "@playwright/test";
import { ROLES } from "../lib/access/roles";
import { hydrateOnNavigation } from "./hydration";
import { demoUser, signInThroughForm, storageStateFor } from "./support";

export default async function globalSetup(config: FullConfig) {
  const project = config.projects[0];
  const baseURL = project?.use.baseURL;
  if (!baseURL) throw new Error("baseURL is not configured");
  mkdirSync(path.dirname(storageStateFor("viewer")), { recursive: true });
  const browser = await chromium.launch(project.use.launchOptions);
  try {
    for (const role of ROLES) {
      const context = await browser.newContext({ baseURL });
      const page = hydrateOnNavigation(await context.newPage());
      await page.goto("/sign-in");
      const user = demoUser(role);
      await signInThroughForm(page, user.email, user.password);
      await page.getByTestId("user-role").filter({ hasText: role }).waitFor();
      await context.storageState({ path: storageStateFor(role) });
      await context.close();
    }
  } finally {
    await browser.close();
  }
}
