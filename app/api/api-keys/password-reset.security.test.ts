// Issue 36 §1, "API keys survive a password reset and ignore the one-time
// password": as an attacker who made a key with a phished password would try
// it, against the real route handlers, the real session resolution and a real
// (SQLite) database. An admin's reset (POST /api/users/:id/password-reset)
// revokes the user's personal keys, one audit row per key naming the reset;
// a key whose owner must choose a new password is refused with one line saying
// why (a service key of a reset admin, a key of an account on a one-time
// password) until they have chosen it.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { createDb, type Db } from "@/lib/db/prisma";
import type { TestDatabase } from "@/scripts/test-support/databases";
import { seededSqlite } from "@/scripts/test-support/seeded-sqlite";

const ORIGIN = "http://127.0.0.1:3000";

// Auth.js reads the request's headers through next/headers; outside Next there is no request scope.
const scope = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next/headers", () => ({
  headers: async () => scope.headers,
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, has: () => false, delete: () => undefined }),
}));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

let database: TestDatabase;
let db: Db;
let authRoute: typeof import("@/app/api/auth/[...nextauth]/route");
let keysRoute: typeof import("@/app/api/api-keys/route");
let agentsRoute: typeof import("@/app/api/agents/route");
let runsRoute: typeof import("@/app/api/runs/route");
let resetRoute: typeof import("@/app/api/users/[id]/password-reset/route");
let meRoute: typeof import("@/app/api/me/route");
let users: typeof import("@/lib/users/server/users");
const holder = globalThis as typeof globalThis & { zapDb?: unknown };

beforeAll(async () => {
  // Migrated and demo-seeded: a copy of the global setup's template (no Prisma CLI run, no bcrypt hashes here).
  database = await seededSqlite();
  process.env.DATABASE_URL = database.url;
  process.env.AUTH_SECRET = "security-test-secret-0123456789-abcdefghij";
  db = createDb(database.url);
  holder.zapDb = db;
  authRoute = await import("@/app/api/auth/[...nextauth]/route");
  keysRoute = await import("@/app/api/api-keys/route");
  agentsRoute = await import("@/app/api/agents/route");
  runsRoute = await import("@/app/api/runs/route");
  resetRoute = await import("@/app/api/users/[id]/password-reset/route");
  meRoute = await import("@/app/api/me/route");
  users = await import("@/lib/users/server/users");
});

afterAll(async () => {
  delete holder.zapDb;
  await db.$disconnect();
  await database.drop();
});

const noParams = { params: Promise.resolve({} as Record<string, never>) };

/** A browser with a cookie jar (signs in through Auth.js's real route). */
class Browser {
  private jar = new Map<string, string>();

  headers(extra: Record<string, string> = {}): Headers {
    const cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    return new Headers({ host: "127.0.0.1:3000", ...(cookie ? { cookie } : {}), ...extra });
  }

  private keep(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      if (value && !/max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.jar.set(name, value);
      else this.jar.delete(name);
    }
    return response;
  }

  async signIn(email: string, password: string): Promise<void> {
    scope.headers = this.headers();
    const csrf = this.keep(await authRoute.GET(new NextRequest(`${ORIGIN}/api/auth/csrf`, { headers: this.headers() })));
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const body = new URLSearchParams({ email, password, csrfToken, callbackUrl: `${ORIGIN}/` });
    scope.headers = this.headers();
    const response = this.keep(
      await authRoute.POST(new NextRequest(`${ORIGIN}/api/auth/callback/credentials`, { method: "POST", body, headers: this.headers({ "content-type": "application/x-www-form-urlencoded" }) })),
    );
    if (response.status !== 302 || (response.headers.get("location") ?? "").includes("error=")) throw new Error(`sign-in of ${email} failed`);
  }

  /** A change from the app's own page (cookie and Origin). */
  post(path: string, body?: unknown): NextRequest {
    const headers = this.headers({ origin: ORIGIN, ...(body === undefined ? {} : { "content-type": "application/json" }) });
    scope.headers = headers;
    return new NextRequest(`${ORIGIN}${path}`, { method: "POST", headers, body: body === undefined ? undefined : JSON.stringify(body) });
  }
}

/** A request from a program: its key, JSON, no cookie, no Origin. */
function withKey(token: string, path: string, init: { method?: string; body?: unknown } = {}): NextRequest {
  scope.headers = new Headers(); // no cookie: had the key been ignored, the caller would be nobody
  const headers: Record<string, string> = { host: "127.0.0.1:3000", authorization: `Bearer ${token}` };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  return new NextRequest(`${ORIGIN}${path}`, { method: init.method ?? "GET", headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
}

async function makeUser(email: string, role: "viewer" | "builder" | "admin"): Promise<{ id: string; email: string; browser: Browser }> {
  const issued = await users.createUser(null, { email, name: email, role }, db);
  await db.user.update({ where: { id: issued.user.id }, data: { mustChangePassword: false } });
  const browser = new Browser();
  await browser.signIn(email, issued.oneTimePassword!);
  return { id: issued.user.id, email, browser };
}

async function createKey(browser: Browser, body: Record<string, unknown>): Promise<{ id: string; token: string }> {
  const response = await keysRoute.POST(browser.post("/api/api-keys", body), noParams);
  expect(response.status, await response.clone().text()).toBe(201);
  const { key, token } = (await response.json()) as { key: { id: string }; token: string };
  return { id: key.id, token };
}

const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;
const MUST_CHOOSE = "API key refused: the key's owner must choose a new password first (sign in and set it on the Account page)";

async function adminBrowser(): Promise<Browser> {
  const admin = new Browser();
  await admin.signIn("admin@zap.local", "admin-demo");
  return admin;
}

describe("an admin's password reset and the user's API keys", () => {
  it("POST /api/users/:id/password-reset revokes the builder's personal keys (one api_key.revoked row each, naming the reset); the key that created an agent before gets 401 after, for an agent and a run alike", async () => {
    const builder = await makeUser("reset-builder@example.com", "builder");
    const ci = await createKey(builder.browser, { name: "CI", role: "builder" });
    const laptop = await createKey(builder.browser, { name: "laptop", role: "viewer" });
    const before = await agentsRoute.POST(withKey(ci.token, "/api/agents", { method: "POST", body: { name: "made-before-reset", template: "blank" } }), noParams);
    expect(before.status, await before.clone().text()).toBe(201);

    const admin = await adminBrowser();
    const reset = await resetRoute.POST(admin.post(`/api/users/${builder.id}/password-reset`), { params: Promise.resolve({ id: builder.id }) });
    expect(reset.status, await reset.clone().text()).toBe(200);
    const agent = await agentsRoute.POST(withKey(ci.token, "/api/agents", { method: "POST", body: { name: "made-after-reset", template: "blank" } }), noParams);
    expect(agent.status).toBe(401);
    expect((await errorOf(agent)).message).toMatch(/^API key refused: this key was revoked at /);
    const run = await runsRoute.POST(withKey(ci.token, "/api/runs", { method: "POST", body: { graph: "support-triage", task: "after the reset" } }), noParams);
    expect(run.status, "a run is refused before anything starts").toBe(401);
    expect(await db.agent.count({ where: { name: "made-after-reset" } })).toBe(0);

    const answer = (await reset.json()) as { oneTimePassword: string; revokedApiKeys: { id: string; name: string; prefix: string }[] };
    expect(answer.revokedApiKeys.map((k) => k.name).sort(), "the answer says which keys went").toEqual(["CI", "laptop"]);

    for (const key of [ci, laptop]) {
      expect((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).revokedAt, "revoked in the database").not.toBeNull();
      const rows = await db.auditEvent.findMany({ where: { action: "api_key.revoked", target: key.id } });
      expect(rows, "one audit row per key").toHaveLength(1);
      expect(JSON.parse(rows[0]!.details)).toMatchObject({ ownerId: builder.id, because: "password_reset" });
    }
    const resetRow = await db.auditEvent.findFirstOrThrow({ where: { action: "user.password_reset", target: builder.id } });
    expect(JSON.parse(resetRow.details).revokedApiKeys).toEqual(expect.arrayContaining([ci.id, laptop.id]));

    // The owner chooses a new password: the revoked keys stay revoked (they make new ones).
    await users.changeOwnPassword({ id: builder.id, email: builder.email }, { currentPassword: answer.oneTimePassword, newPassword: "a fresh passphrase of theirs" }, db);
    expect((await meRoute.GET(withKey(laptop.token, "/api/me"), noParams)).status).toBe(401);
  });

  it("a reset admin's service key is not revoked but refused with one line until they choose a new password; then it works again", async () => {
    const owner = await makeUser("reset-admin@example.com", "admin");
    const service = await createKey(owner.browser, { name: "deploy bot", role: "builder", kind: "service" });
    expect((await meRoute.GET(withKey(service.token, "/api/me"), noParams)).status).toBe(200);
    const admin = await adminBrowser();
    const reset = await resetRoute.POST(admin.post(`/api/users/${owner.id}/password-reset`), { params: Promise.resolve({ id: owner.id }) });
    expect(reset.status, await reset.clone().text()).toBe(200);
    const refused = await agentsRoute.POST(withKey(service.token, "/api/agents", { method: "POST", body: { name: "by-a-reset-owner", template: "blank" } }), noParams);
    expect(refused.status).toBe(401);
    expect((await errorOf(refused)).message).toBe(MUST_CHOOSE);
    expect(await db.agent.count({ where: { name: "by-a-reset-owner" } })).toBe(0);
    const { oneTimePassword, revokedApiKeys } = (await reset.json()) as { oneTimePassword: string; revokedApiKeys: unknown[] };
    expect(revokedApiKeys, "service keys are not revoked").toEqual([]);
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: service.id } })).revokedAt).toBeNull();

    await users.changeOwnPassword({ id: owner.id, email: owner.email }, { currentPassword: oneTimePassword, newPassword: "the admin's own new passphrase" }, db);
    expect((await meRoute.GET(withKey(service.token, "/api/me"), noParams)).status, "chosen: the service key works again").toBe(200);
  });

  it("a key whose owner holds a one-time password is refused with one line saying why, for reads and changes alike", async () => {
    const owner = await makeUser("one-time-owner@example.com", "builder");
    const key = await createKey(owner.browser, { name: "script", role: "builder" });
    // An account still on a one-time password (a key made for it by the operator's CLI, or before the rule).
    await db.user.update({ where: { id: owner.id }, data: { mustChangePassword: true } });
    const read = await meRoute.GET(withKey(key.token, "/api/me"), noParams);
    expect(read.status).toBe(401);
    expect((await errorOf(read)).message).toBe(MUST_CHOOSE);
    const change = await agentsRoute.POST(withKey(key.token, "/api/agents", { method: "POST", body: { name: "by-a-one-time-owner", template: "blank" } }), noParams);
    expect(change.status).toBe(401);
    expect(await db.agent.count({ where: { name: "by-a-one-time-owner" } })).toBe(0);
  });
});
