// Issue 23 §1, as a program (or an attacker holding a key) would try it,
// against the real route handlers, the real session resolution and a real
// (SQLite) database: a key alone (no cookie, no Origin) calls a mutating route
// and the audit row names it; a revoked, an expired, a disabled owner's or a
// made-up key gets 401 with one line saying why; a key never acts above its
// owner's current role; keys are throttled per key (429 + Retry-After); a
// builder cannot create a service key or a key above their role; a key cannot
// create keys.
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
let keyRoute: typeof import("@/app/api/api-keys/[id]/route");
let agentsRoute: typeof import("@/app/api/agents/route");
let usersRoute: typeof import("@/app/api/users/route");
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
  keyRoute = await import("@/app/api/api-keys/[id]/route");
  agentsRoute = await import("@/app/api/agents/route");
  usersRoute = await import("@/app/api/users/route");
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

  /** POST /api/api-keys from the app's own page (cookie and Origin). */
  async createKey(body: Record<string, unknown>, extra: Record<string, string> = { origin: ORIGIN }): Promise<Response> {
    const headers = this.headers({ "content-type": "application/json", ...extra });
    scope.headers = headers;
    return keysRoute.POST(new NextRequest(`${ORIGIN}/api/api-keys`, { method: "POST", body: JSON.stringify(body), headers }), noParams);
  }
}

/** A request from a program: its key, JSON, no cookie, no Origin. */
function withKey(token: string, path: string, init: { method?: string; body?: unknown } = {}): NextRequest {
  scope.headers = new Headers(); // no cookie: had the key been ignored, the caller would be nobody
  const headers: Record<string, string> = { host: "127.0.0.1:3000", authorization: `Bearer ${token}` };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  return new NextRequest(`${ORIGIN}${path}`, { method: init.method ?? "GET", headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
}

async function makeUser(email: string, role: "viewer" | "builder" | "admin"): Promise<{ id: string; browser: Browser }> {
  const issued = await users.createUser(null, { email, name: email, role }, db);
  await db.user.update({ where: { id: issued.user.id }, data: { mustChangePassword: false } });
  const browser = new Browser();
  await browser.signIn(email, issued.oneTimePassword!);
  return { id: issued.user.id, browser };
}

interface Created {
  key: { id: string; prefix: string; role: string; kind: string; status: string };
  token: string;
}

async function createKey(browser: Browser, body: Record<string, unknown>): Promise<Created> {
  const response = await browser.createKey(body);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Created;
}

const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;

describe("a program calls the API with a key", () => {
  it("a key alone (no cookie, no Origin) creates an agent; the audit row has the owner as actor and the key's id; the secret is stored only as a keyed hash", async () => {
    const builder = await makeUser("key-builder@example.com", "builder");
    const { key, token } = await createKey(builder.browser, { name: "CI", role: "builder" });
    expect(token).toMatch(/^zap_[A-Za-z0-9_-]{54}$/);
    expect(key.prefix).toBe(token.slice(0, 16));
    const row = await db.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(JSON.stringify(row)).not.toContain(token.slice(16));
    expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);
    const created = await db.auditEvent.findFirstOrThrow({ where: { action: "api_key.created", target: key.id } });
    expect(created.details).not.toContain(token.slice(16));

    const response = await agentsRoute.POST(withKey(token, "/api/agents", { method: "POST", body: { name: "made-with-a-key", template: "blank" } }), noParams);
    expect(response.status, await response.clone().text()).toBe(201);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "agent.created", target: "made-with-a-key" } });
    expect(audit.actorId).toBe(builder.id);
    expect(JSON.parse(audit.details)).toMatchObject({ apiKeyId: key.id });

    const used = await db.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(used.lastUsedAt, "the first use is stamped").not.toBeNull();
    await meRoute.GET(withKey(token, "/api/me"), noParams);
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt, "not written again within the minute").toEqual(used.lastUsedAt);
  });

  it("a revoked key, an expired key, a disabled owner's key and a made-up key get 401 with one line saying why", async () => {
    const owner = await makeUser("key-owner@example.com", "builder");
    const revoked = await createKey(owner.browser, { name: "to revoke", role: "viewer" });
    expect((await meRoute.GET(withKey(revoked.token, "/api/me"), noParams)).status).toBe(200);
    scope.headers = owner.browser.headers({ origin: ORIGIN });
    const revoke = await keyRoute.DELETE(new NextRequest(`${ORIGIN}/api/api-keys/${revoked.key.id}`, { method: "DELETE", headers: owner.browser.headers({ origin: ORIGIN }) }), {
      params: Promise.resolve({ id: revoked.key.id }),
    });
    expect(revoke.status, await revoke.clone().text()).toBe(200);
    expect(await db.auditEvent.count({ where: { action: "api_key.revoked", target: revoked.key.id, actorId: owner.id } })).toBe(1);
    const afterRevoke = await meRoute.GET(withKey(revoked.token, "/api/me"), noParams);
    expect(afterRevoke.status).toBe(401);
    expect((await errorOf(afterRevoke)).message).toMatch(/^API key refused: this key was revoked at /);

    const expiring = await createKey(owner.browser, { name: "short-lived", role: "viewer", expiresInDays: 1 });
    await db.apiKey.update({ where: { id: expiring.key.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await meRoute.GET(withKey(expiring.token, "/api/me"), noParams);
    expect(expired.status).toBe(401);
    expect((await errorOf(expired)).message).toMatch(/^API key refused: this key expired at /);

    const disabledOwner = await makeUser("key-disabled@example.com", "builder");
    const disabledKey = await createKey(disabledOwner.browser, { name: "owner goes", role: "builder" });
    const admin = await db.user.findFirstOrThrow({ where: { email: "admin@zap.local" } });
    await users.setUserDisabled({ id: admin.id }, { userId: disabledOwner.id, disabled: true }, db);
    const disabled = await agentsRoute.POST(withKey(disabledKey.token, "/api/agents", { method: "POST", body: { name: "never-made", template: "blank" } }), noParams);
    expect(disabled.status).toBe(401);
    expect((await errorOf(disabled)).message).toBe("API key refused: the key's owner is disabled");
    expect(await db.agent.count({ where: { name: "never-made" } })).toBe(0);

    const madeUp = await meRoute.GET(withKey(`${revoked.token.slice(0, 20)}${"A".repeat(34)}`, "/api/me"), noParams);
    expect(madeUp.status).toBe(401);
    expect((await errorOf(madeUp)).message).toBe("API key refused: this key does not exist");
    const tampered = await meRoute.GET(withKey(`${expiring.token.slice(0, 16)}${"B".repeat(38)}`, "/api/me"), noParams);
    expect((await errorOf(tampered)).message, "the right prefix with a wrong secret").toBe("API key refused: this key does not exist");
    expect((await meRoute.GET(withKey("zap_short", "/api/me"), noParams)).status).toBe(401);
    const other = await meRoute.GET(withKey("not-a-zap-key", "/api/me"), noParams);
    expect((await errorOf(other)).message, "another scheme's token is not a key: the caller is nobody").toBe("Sign in to continue");
  });

  it("a key never acts above its owner's current role", async () => {
    const admin = await makeUser("key-admin@example.com", "admin");
    const { token } = await createKey(admin.browser, { name: "admin tool", role: "admin" });
    expect((await usersRoute.GET(withKey(token, "/api/users"), noParams)).status).toBe(200);
    await db.user.update({ where: { id: admin.id }, data: { role: "builder" } });
    const demoted = await usersRoute.GET(withKey(token, "/api/users"), noParams);
    expect(demoted.status, "the owner is a builder now: so is the key").toBe(403);
  });

  it("each key is throttled on its own: past the limit, 429 with Retry-After; another key of the same owner still works", async () => {
    const owner = await makeUser("key-busy@example.com", "viewer");
    const busy = await createKey(owner.browser, { name: "busy", role: "viewer" });
    const calm = await createKey(owner.browser, { name: "calm", role: "viewer" });
    const { API_KEY_LIMITS } = await import("@/lib/auth/server/api-keys");
    // 599 requests already counted in this minute (the table the limiter keeps): one more is allowed, the next is not.
    await db.rateLimit.create({ data: { key: `apikey:${busy.key.id}`, points: API_KEY_LIMITS.requests - 1, expire: new Date(Date.now() + 60_000) } });
    expect((await meRoute.GET(withKey(busy.token, "/api/me"), noParams)).status).toBe(200);
    const refused = await meRoute.GET(withKey(busy.token, "/api/me"), noParams);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await meRoute.GET(withKey(calm.token, "/api/me"), noParams)).status).toBe(200);
  });
});

describe("who may create which key", () => {
  it("a builder cannot create a service key, nor a key above their role; a viewer only a viewer key", async () => {
    const builder = await makeUser("key-limits@example.com", "builder");
    const service = await builder.browser.createKey({ name: "svc", role: "builder", kind: "service" });
    expect(service.status).toBe(403);
    const above = await builder.browser.createKey({ name: "too much", role: "admin" });
    expect(above.status).toBe(403);
    const sideways = await builder.browser.createKey({ name: "approver", role: "approver" });
    expect(sideways.status, "approver grants what a builder does not").toBe(403);
    expect(await db.apiKey.count({ where: { ownerId: builder.id } })).toBe(0);
    const viewer = await makeUser("key-viewer@example.com", "viewer");
    expect((await viewer.browser.createKey({ name: "up", role: "builder" })).status).toBe(403);
    expect((await viewer.browser.createKey({ name: "mine", role: "viewer" })).status).toBe(201);
  });

  it("an admin creates a service key; a key cannot create keys; the cookie session still needs the app's Origin", async () => {
    const admin = await makeUser("key-service@example.com", "admin");
    const { key, token } = await createKey(admin.browser, { name: "deploy bot", role: "builder", kind: "service" });
    expect(key.kind).toBe("service");
    const withAKey = await keysRoute.POST(withKey(token, "/api/api-keys", { method: "POST", body: { name: "child", role: "viewer" } }), noParams);
    expect(withAKey.status).toBe(403);
    expect(await db.apiKey.count({ where: { name: "child" } })).toBe(0);
    const noOrigin = await admin.browser.createKey({ name: "csrf", role: "viewer" }, {});
    expect(noOrigin.status, "a cookie without the app's Origin is refused as before").toBe(403);
  });

  it("a user lists and revokes only their own keys; an admin sees and revokes any", async () => {
    const alice = await makeUser("key-alice@example.com", "builder");
    const bob = await makeUser("key-bob@example.com", "builder");
    const alices = await createKey(alice.browser, { name: "alice's", role: "viewer" });
    const bobs = await createKey(bob.browser, { name: "bob's", role: "viewer" });
    const listed = (await (await keysRoute.GET(withKey(alices.token, "/api/api-keys"), noParams)).json()) as { keys: { id: string }[] };
    expect(listed.keys.map((k) => k.id)).toEqual([alices.key.id]);
    const foreign = await keyRoute.DELETE(withKey(alices.token, `/api/api-keys/${bobs.key.id}`, { method: "DELETE" }), { params: Promise.resolve({ id: bobs.key.id }) });
    expect(foreign.status).toBe(404);
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: bobs.key.id } })).revokedAt).toBeNull();
    const admin = await makeUser("key-revoker@example.com", "admin");
    const adminKey = await createKey(admin.browser, { name: "admin", role: "admin" });
    const all = (await (await keysRoute.GET(withKey(adminKey.token, "/api/api-keys"), noParams)).json()) as { keys: { id: string }[] };
    expect(all.keys.map((k) => k.id)).toEqual(expect.arrayContaining([alices.key.id, bobs.key.id]));
    const revoked = await keyRoute.DELETE(withKey(adminKey.token, `/api/api-keys/${bobs.key.id}`, { method: "DELETE" }), { params: Promise.resolve({ id: bobs.key.id }) });
    expect(revoked.status).toBe(200);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "api_key.revoked", target: bobs.key.id } });
    expect(audit.actorId).toBe(admin.id);
    expect(JSON.parse(audit.details)).toMatchObject({ apiKeyId: adminKey.key.id, ownerId: bob.id });
    expect((await meRoute.GET(withKey(bobs.token, "/api/me"), noParams)).status).toBe(401);
  });
});

describe("the proxy in front of every route", () => {
  it("passes a call with `Bearer zap_…` on to the route (which checks the key), and still answers 401 to an API call with neither key nor session", async () => {
    const { proxy } = await import("@/proxy");
    const event = { waitUntil: () => undefined } as unknown as import("next/server").NextFetchEvent;
    const call = (headers: Record<string, string>, path = "/api/me") => proxy(new NextRequest(`${ORIGIN}${path}`, { headers: { host: "127.0.0.1:3000", ...headers } }), event);
    const passed = await call({ authorization: "Bearer zap_anything" });
    expect(passed.headers.get("x-middleware-next"), "passed on to the route").toBe("1");
    expect((await call({})).status).toBe(401);
    expect((await call({ authorization: "Basic dXNlcjpwYXNz" })).status).toBe(401);
    const page = await call({ authorization: "Bearer zap_anything" }, "/agents");
    expect(page.status, "a key opens no page").toBe(307);
    const image = await call({ authorization: "Bearer zap_anything" }, "/api/attachments/img_x");
    expect(image.headers.get("content-security-policy"), "a stored image keeps its sandbox").toContain("sandbox");
  });

  it("passes an inbound webhook delivery on without a session (its signature is checked by the route), and nothing else under /api/hooks-like paths", async () => {
    const { proxy } = await import("@/proxy");
    const event = { waitUntil: () => undefined } as unknown as import("next/server").NextFetchEvent;
    const call = (path: string) => proxy(new NextRequest(`${ORIGIN}${path}`, { method: "POST", headers: { host: "127.0.0.1:3000" } }), event);
    expect((await call("/api/hooks/whk_anything")).headers.get("x-middleware-next"), "a delivery reaches the route").toBe("1");
    expect((await call("/api/hooks")).status, "the prefix only, with its slash").toBe(401);
    expect((await call("/api/hooksmith")).status).toBe(401);
    expect((await call("/api/webhooks")).status, "managing webhooks takes a session").toBe(401);
  });

  it("every /api route but the public ones is built on apiRoute, so none skips the key's check the proxy leaves to it", async () => {
    const fs = await import("node:fs");
    const path = await import("node:path");
    const root = path.resolve(import.meta.dirname, "../../..");
    const routes = fs.readdirSync(path.join(root, "app/api"), { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name === "route.ts");
    const unguarded = routes
      .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
      // The public ones: Auth.js, the health check, and inbound webhook deliveries (authenticated by their HMAC signature).
      .filter((file) => !["app/api/auth/[...nextauth]/route.ts", "app/api/health/route.ts", "app/api/hooks/[endpointId]/route.ts", "app/api/slack/interactions/route.ts"].includes(file))
      .filter((file) => {
        const text = fs.readFileSync(path.join(root, file), "utf8");
        const exported = [...text.matchAll(/export (?:const|async function) (GET|POST|PUT|PATCH|DELETE)\b([^\n]*)/g)];
        return exported.length === 0 || exported.some(([, , definition]) => !/^\s*=\s*(apiRoute|operationRoute|operationQueryRoute)\b/.test(definition ?? ""));
      });
    expect(routes.length).toBeGreaterThan(20);
    expect(unguarded).toEqual([]);
  });
});
