// Fixtures for specs that change what other specs read: each creates what it
// changes (a user, a graph of its own) or restores it in the fixture's
// teardown, which Playwright runs after the test whether it passed or not —
// so a failure half-way through never leaves the shared demo data changed
// for the files after it (issue 38 §3: npm test runs them in a shuffled order).
import path from "node:path";
import { randomUUID } from "node:crypto";
import { expect, type APIRequestContext } from "@playwright/test";
import { test as base } from "./hydration";
import type { Role } from "../lib/access/roles";
import { createDb } from "../lib/db/prisma";
import type { WorkspacePolicy } from "../lib/policy/schemas";
import { storageStateFor } from "./support";

type PolicyAnswer = { revision: number; policy: WorkspacePolicy };

/** The stack's own database (arranging what no HTTP route does, and restoring what the API can no longer reach). */
export function stackDb() {
  const dataDir = process.env.E2E_DATA_DIR ?? path.join(import.meta.dirname, "..", ".data", "e2e");
  return createDb(process.env.E2E_DATABASE_URL ?? `file:${path.join(dataDir, "zap.db")}`);
}

export interface OwnFixtures {
  /** An API context signed in as a demo role (disposed after the test). */
  apiAs: (role: Role) => Promise<APIRequestContext>;
  /** Creates a user of the given role with a unique email, for this test only; answers its email and id. */
  ownUser: (role: Role) => Promise<{ id: string; email: string }>;
  /** Copies a demo graph (its newest version) under a unique name, so this test's saves never reach the seeded one. */
  ownGraph: (from: string) => Promise<string>;
  /** The workspace policy as it was before the test; the teardown puts it back (as a new revision). */
  savedPolicy: PolicyAnswer;
  /** The demo users' roles as they were; the teardown restores any that changed (even the last admin's, through the database). */
  demoRoles: void;
}

export const test = base.extend<OwnFixtures>({
  apiAs: async ({ playwright, baseURL }, provide) => {
    const contexts: APIRequestContext[] = [];
    await provide(async (role) => {
      const context = await playwright.request.newContext({ baseURL, storageState: storageStateFor(role), extraHTTPHeaders: { Origin: baseURL ?? "" } });
      contexts.push(context);
      return context;
    });
    await Promise.all(contexts.map((c) => c.dispose()));
  },
  ownUser: async ({ apiAs }, provide) => {
    const admin = await apiAs("admin");
    await provide(async (role) => {
      const email = `own-${role}-${randomUUID().slice(0, 8)}@example.com`;
      const created = await admin.post("/api/users", { data: { email, name: `Own ${role}`, role, kind: "password" } });
      expect(created.status(), await created.text()).toBe(201);
      const { user } = (await created.json()) as { user: { id: string } };
      return { id: user.id, email };
    });
  },
  ownGraph: async ({ apiAs }, provide) => {
    const builder = await apiAs("builder");
    await provide(async (from) => {
      const name = `${from}-${randomUUID().slice(0, 8)}`;
      const copied = await builder.post(`/api/agents/${from}/duplicate`, { data: { newName: name } });
      expect(copied.status(), await copied.text()).toBe(201);
      return name;
    });
  },
  savedPolicy: async ({ apiAs }, provide) => {
    const admin = await apiAs("admin");
    const before = (await (await admin.get("/api/policy")).json()) as PolicyAnswer;
    await provide(before);
    const now = (await (await admin.get("/api/policy")).json()) as PolicyAnswer;
    if (JSON.stringify(now.policy) === JSON.stringify(before.policy)) return;
    const restored = await admin.put("/api/policy", { data: before.policy });
    expect(restored.status(), `the workspace policy is restored: ${await restored.text()}`).toBe(200);
  },
  demoRoles: async ({}, provide) => {
    const db = stackDb();
    try {
      const before = await db.user.findMany({ where: { email: { endsWith: "@zap.local" } }, select: { id: true, role: true } });
      await provide();
      for (const user of before) await db.user.updateMany({ where: { id: user.id, NOT: { role: user.role } }, data: { role: user.role } });
    } finally {
      await db.$disconnect();
    }
  },
});

export { expect };
