// Issue 23 §3, production mode at any time (not only at boot): an admin cannot
// enable a demo account (its password is published), and a demo account enabled
// behind the app's back (a hand-edited database) can neither sign in nor keep a
// session. The real Auth.js route and a real (SQLite) database, like
// accounts.security.test.ts, in a process whose configuration says production.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { createDb, type Db } from "../../db/prisma";
import type { TestDatabase } from "../../../scripts/test-support/databases";
import { seededSqlite } from "../../../scripts/test-support/seeded-sqlite";
import { DEMO_USERS } from "../demo-users";

const ORIGIN = "http://127.0.0.1:3000";
const scope = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next/headers", () => ({
  headers: async () => scope.headers,
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, has: () => false, delete: () => undefined }),
}));

let database: TestDatabase;
let db: Db;
let authRoute: typeof import("@/app/api/auth/[...nextauth]/route");
let users: typeof import("../../users/server/users");

beforeAll(async () => {
  // Migrated and demo-seeded: a copy of the global setup's template (no Prisma CLI run, no bcrypt hashes here).
  database = await seededSqlite();
  process.env.DATABASE_URL = database.url;
  process.env.AUTH_SECRET = "security-test-secret-0123456789-abcdefghij";
  process.env.ZAP_TRUST_PROXY = "true";
  process.env.ZAP_PAYLOAD_KEY ??= "production-test-payload-key-0123456789abcdef";
  db = createDb(database.url);
  // The demo accounts exist (seeded in demo mode, say: the template is), then the deployment switches to production and they are disabled.
  await db.user.updateMany({ where: { isDemo: true }, data: { disabledAt: new Date() } });
  process.env.ZAP_MODE = "production";
  authRoute = await import("@/app/api/auth/[...nextauth]/route");
  users = await import("../../users/server/users");
});

afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

async function signIn(email: string, password: string, ip: string): Promise<{ response: Response; cookie: string }> {
  const base = { host: "127.0.0.1:3000", "x-forwarded-for": ip };
  const csrf = await authRoute.GET(new NextRequest(`${ORIGIN}/api/auth/csrf`, { headers: base }));
  const jar = csrf.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const headers = new Headers({ ...base, cookie: jar, "content-type": "application/x-www-form-urlencoded" });
  scope.headers = headers;
  const response = await authRoute.POST(new NextRequest(`${ORIGIN}/api/auth/callback/credentials`, { method: "POST", headers, body: new URLSearchParams({ email, password, csrfToken, callbackUrl: `${ORIGIN}/` }) }));
  const cookie = [jar, ...response.headers.getSetCookie().map((line) => line.split(";")[0])].join("; ");
  return { response, cookie };
}

const signedIn = (response: Response) => response.status === 302 && !(response.headers.get("location") ?? "").includes("error=");

describe("production mode, at any time", () => {
  it("an admin cannot enable a demo account (the function every door calls); nothing is written", async () => {
    const admin = (await users.createUser(null, { email: "owner@example.com", name: "Owner", role: "admin" }, db)).user;
    const demo = await db.user.findUniqueOrThrow({ where: { email: "admin@zap.local" } });
    await expect(users.setUserDisabled({ id: admin.id }, { userId: demo.id, disabled: false }, db)).rejects.toThrow(/production mode.*demo/i);
    expect((await db.user.findUniqueOrThrow({ where: { id: demo.id } })).disabledAt).not.toBeNull();
    expect(await db.auditEvent.count({ where: { action: "user.enabled", target: demo.id } })).toBe(0);
  });

  it("a demo account enabled behind the app's back cannot sign in with its published password", async () => {
    const demo = DEMO_USERS.find((u) => u.role === "viewer")!;
    await db.user.update({ where: { email: demo.email }, data: { disabledAt: null } });
    const { response } = await signIn(demo.email, demo.password, "198.51.100.70");
    expect(signedIn(response), "refused like a wrong password").toBe(false);
    const failure = await db.auditEvent.findFirstOrThrow({ where: { action: "auth.sign_in_failed", target: demo.email } });
    expect(failure.details).toContain("demo_in_production");
  });
});
